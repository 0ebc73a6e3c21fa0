// Opening a page as a reader would, in headless Chromium: the DOM after loading (scripts, had any run, included)
// and a screenshot. Chromium runs with its own profile in a temporary directory and without its background
// network traffic, so a request seen by a test's server came from the page.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { tempDir } from "./temp-dir.js";

const NAMES = ["chromium", "chromium-browser", "google-chrome"];

/** The Chromium binary on the PATH (looked up without running it), or undefined. */
export function chromiumBinary(): string | undefined {
	for (const dir of (process.env.PATH ?? "").split(delimiter)) {
		for (const name of NAMES) if (dir !== "" && existsSync(join(dir, name))) return join(dir, name);
	}
	return undefined;
}

function run(args: string[]): Promise<string> {
	const binary = chromiumBinary();
	if (!binary) throw new Error("Chromium is not installed (apt-get install -y chromium).");
	const flags = [
		"--headless",
		"--no-sandbox",
		"--disable-gpu",
		"--no-first-run",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-default-apps",
		"--disable-extensions",
		"--no-default-browser-check",
		"--metrics-recording-only",
		`--user-data-dir=${tempDir("loom-chromium-")}`,
	];
	return new Promise((resolve, reject) => {
		execFile(binary, [...flags, ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
			if (error) reject(new Error(`chromium failed: ${error.message}\n${stderr.slice(-2000)}`));
			else resolve(stdout);
		});
	});
}

/** The page's DOM as Chromium has it once loaded. */
export function dumpDom(file: string): Promise<string> {
	return run(["--dump-dom", `file://${file}`]);
}

/** A PNG of the page at this window size. */
export async function screenshot(file: string, png: string, size = "1000,1400"): Promise<void> {
	await run([`--screenshot=${png}`, `--window-size=${size}`, `file://${file}`]);
}
