// Finds and loads a session's extensions, in this order: loom home's extensions folder, the project's
// .loom/extensions (once the project is trusted), then the ones given (-e paths, factories). A file of a folder that
// fails to load is reported with its path and the others load all the same; one the caller named by path or
// factory must load, or the session is not made (a guard asked for by name never silently goes missing).
import { join, relative, resolve } from "node:path";
import { errorMessage } from "../../core/index.js";
import type { AgentSession, CommandScope, ProjectTrustGate } from "../../core/index.js";
import type { ExtensionFactory } from "./extension-api.js";
import { extensionFiles, extensionModule } from "./extension-files.js";
import { ExtensionHost, type ToolRegistrar } from "./extension-host.js";
import { extensionImporter } from "./import-extension.js";
import { EXTENSION_LOAD_TIMEOUT_MS } from "./load-timeout.js";

export interface InstallExtensionsOptions {
	cwd: string;
	/** loom's home: its `extensions` folder holds the user's own extensions. */
	home: string;
	/** Paths (a module, or a folder with an index module; relative to cwd) and factories, loaded last. */
	extensions?: readonly (string | ExtensionFactory)[];
	/** The project's extensions load only once it is trusted. */
	trust: ProjectTrustGate;
	tools: ToolRegistrar;
	/** Modules an extension imports by name whatever its folder holds (see extensionImporter). */
	modules: () => Promise<Record<string, unknown>>;
	/** How long an extension's import, and then its factory, may take (EXTENSION_LOAD_TIMEOUT_MS by default). */
	loadTimeoutMs?: number;
}

export interface ExtensionFailure {
	/** The file's path, or the factory's name. */
	source: string;
	error: string;
}

export interface ExtensionsReport {
	/** Paths and factory names, in load order. */
	loaded: string[];
	failed: ExtensionFailure[];
}

/** The project's own extensions folder. */
const PROJECT_EXTENSIONS = join(".loom", "extensions");

/** Extensions the caller named (-e paths, createAgentSession's `extensions`) that did not load, each with why. */
export class NamedExtensionsError extends Error {
	constructor(readonly failures: readonly ExtensionFailure[]) {
		super(failures.map((failure) => `${failure.source} was not loaded: ${failure.error.replace(/[^.]$/, "$&.")}`).join(" "));
		this.name = "NamedExtensionsError";
	}
}

type Source = ({ path: string } | { factory: ExtensionFactory }) & { label: string; scope: CommandScope };

/** Throws a NamedExtensionsError when a named extension does not load (the caller disposes the session). */
export async function installExtensions(session: AgentSession, options: InstallExtensionsOptions): Promise<ExtensionsReport> {
	const loadTimeoutMs = options.loadTimeoutMs ?? EXTENSION_LOAD_TIMEOUT_MS;
	const host = new ExtensionHost(session, options.tools, loadTimeoutMs);
	session.onDispose(() => host.dispose());
	const importer = extensionImporter(options.modules);
	const report: ExtensionsReport = { loaded: [], failed: [] };

	const reportFailure = (failure: ExtensionFailure) => {
		report.failed.push(failure);
		session.ui.notify("error", `Extension ${failure.source} was not loaded: ${failure.error}`);
	};
	/**
	 * Imports the sources' modules all at once (a stuck import neither holds back the others nor adds its wait to
	 * theirs), then calls their factories in turn, in the sources' order; a failure goes to `failed`, and the next
	 * source loads all the same.
	 */
	const load = async (sources: readonly Source[], failed = reportFailure): Promise<void> => {
		const factories = sources.map((source) => {
			const factory = "factory" in source ? Promise.resolve(source.factory) : (async () => importer.importFactory(extensionModule(source.path), loadTimeoutMs))();
			// Awaited below, in order: a rejection meanwhile is not an unhandled one.
			factory.catch(() => undefined);
			return factory;
		});
		for (const [index, source] of sources.entries()) {
			try {
				await host.load(source.label, await factories[index]!, source.scope);
				report.loaded.push(source.label);
			} catch (error) {
				failed({ source: source.label, error: errorMessage(error) });
			}
		}
	};

	const userFolder = resolve(options.home, "extensions");
	const projectFolder = resolve(options.cwd, PROJECT_EXTENSIONS);
	await load(extensionFiles(userFolder).map((path) => ({ label: path, path, scope: "user" })));
	// Running loom in the home directory makes the user's folder the project's too: it is loaded once, as the user's.
	const project = projectFolder === userFolder ? [] : extensionFiles(projectFolder);
	if (project.length > 0) {
		const names = project.map((path) => relative(options.cwd, path));
		await options.trust.whenTrusted(names, () => load(project.map((path) => ({ label: path, path, scope: "project" }))));
	}
	const named: ExtensionFailure[] = [];
	await load(givenSources(options.extensions ?? [], options.cwd), (failure) => named.push(failure));
	if (named.length > 0) throw new NamedExtensionsError(named);
	return report;
}

function givenSources(given: readonly (string | ExtensionFactory)[], cwd: string): Source[] {
	return given.map((entry, index) => {
		if (typeof entry === "function") return { label: entry.name || `extension #${index + 1}`, factory: entry, scope: "user" };
		const path = resolve(cwd, entry);
		return { label: path, path, scope: "user" };
	});
}
