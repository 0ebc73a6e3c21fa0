// Runs dependency-cruiser over src/ with the house rules (.dependency-cruiser.cjs) and prints each violation with
// the rule it breaks; exits 1 when there is one. `node test/layers/check-layers.mjs [--root DIR]`.
//
// dependency-cruiser reads TypeScript through the compiler's JavaScript API, which TypeScript 7 (the build's
// compiler) does not have; so for dependency-cruiser alone, "typescript" resolves to TypeScript 5 (the dev
// dependency "typescript-5").
import Module, { register } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const fromCruiser = (parent) => typeof parent === "string" && parent.includes("/node_modules/dependency-cruiser/");
const toTypeScript5 = (specifier) => specifier.replace(/^typescript(?=\/|$)/, "typescript-5");
register(
	`data:text/javascript,${encodeURIComponent(`export async function resolve(specifier, context, next) {
		if (/^typescript(\\/|$)/.test(specifier) && context.parentURL?.includes("/node_modules/dependency-cruiser/"))
			return next(specifier.replace(/^typescript/, "typescript-5"), context);
		return next(specifier, context);
	}`)}`,
);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
	const redirected = /^typescript(\/|$)/.test(request) && fromCruiser(parent?.filename) ? toTypeScript5(request) : request;
	return resolveFilename.call(this, redirected, parent, ...rest);
};

const rootAt = process.argv.indexOf("--root");
const root = resolve(rootAt > 0 ? process.argv[rootAt + 1] : ".");
const config = resolve(import.meta.dirname, "../../.dependency-cruiser.cjs");
const { cruise } = await import("dependency-cruiser");
const { default: rules } = await import(pathToFileURL(config).href);
process.chdir(root);
const result = await cruise(["src"], { ...rules.options, validate: true, ruleSet: { forbidden: rules.forbidden }, outputType: "err-long" });
process.stdout.write(result.output);
process.exitCode = result.exitCode > 0 || /\(0 modules/.test(result.output) ? 1 : 0;
