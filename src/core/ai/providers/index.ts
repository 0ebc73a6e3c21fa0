// Door of the providers: the provider table (one entry per wire API) and the run, retry and event-shape machinery
// the providers share.
export { apiProvider, knownApis, registerApi, type ApiProvider } from "./api-registry.js";
export { isRecord } from "./event-shape.js";
export { checkBaseUrl, isContextOverflow } from "./provider-error.js";
export { warmUpFetch } from "./http-fetch.js";
export { runProviderStream, type ProviderStreamOptions } from "./provider-run.js";
