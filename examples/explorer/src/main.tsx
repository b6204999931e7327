import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { connect } from './services.ts';

// The clients already retry what is worth retrying (timeouts, 429, 5xx); TanStack's own retries would
// come on top of theirs, and a 404 or a bad address is an answer, so they are off here.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 } } });
const params = new URLSearchParams(location.search);
const services = await connect(params);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App services={services} />
    </QueryClientProvider>
  </StrictMode>,
);
