// Door of the model registry: the built-in catalog merged with models.json, and what to suggest for an unknown id.
export { ModelRegistry, loadModelRegistry, type ModelListing } from "./model-registry.js";
export { parseModelsJson } from "./models-json.js";
