/** Entry of the minified production bundle the browser tests load: the packages by name, as an app imports them. */
export { createNodeClient, HttpError, NetworkError, TimeoutError, ClientError, InvalidArgumentError, ResponseParseError, ResponseValidationError } from '@x/node-client';
export { createPriceClient } from '@x/price-client';
export { createResponseValidator, validateResponse } from '@x/validators';
