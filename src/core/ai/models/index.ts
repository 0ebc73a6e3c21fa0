// Door of core/ai/models.
export { ModelRegistry, loadModelRegistry, type ModelListing } from "./model-registry.js";
export { parseModelsJson } from "./models-json.js";
