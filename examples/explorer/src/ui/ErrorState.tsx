import { HttpError, InvalidArgumentError, isNotFound, NetworkError, ResponseValidationError, TimeoutError } from '@x/node-client';

/** What went wrong, in a reader's words. Both clients throw the same classes, so one reading serves both. */
export function describeError(error: unknown, notFound: string): { title: string; detail: string } {
  if (isNotFound(error)) return { title: notFound, detail: 'The service answered 404.' };
  if (error instanceof InvalidArgumentError) return { title: `Not a valid ${error.parameter}`, detail: `${error.message} (checked before any request)` };
  if (error instanceof TimeoutError) return { title: 'No answer in time', detail: `Gave up after ${error.timeoutMs} ms per attempt.` };
  if (error instanceof ResponseValidationError)
    return { title: 'The answer failed validation', detail: error.issues.map((i) => `${i.path}: ${i.message}`).join('; ') };
  if (error instanceof NetworkError)
    return { title: 'Could not reach the service', detail: `${error.message}. A service on another origin must allow this page (CORS).` };
  if (error instanceof HttpError) return { title: `The service answered HTTP ${error.status}`, detail: error.message };
  return { title: 'Something went wrong', detail: error instanceof Error ? error.message : String(error) };
}

export function ErrorState({ error, notFound = 'Not found', onRetry }: { error: unknown; notFound?: string; onRetry?: () => void }) {
  const { title, detail } = describeError(error, notFound);
  // A 404 or a bad argument is an answer: asking again would get the same one.
  const retry = onRetry && !isNotFound(error) && !(error instanceof InvalidArgumentError) ? onRetry : undefined;
  return (
    <div className="state error">
      <div role="alert">
        <strong>{title}</strong>
        <span>{detail}</span>
      </div>
      {retry ? (
        <button type="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="state loading">
      Loading {what}…
    </p>
  );
}
