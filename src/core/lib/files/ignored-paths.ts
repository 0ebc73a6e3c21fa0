// Whether the tree walker would skip a path, asked path by path: the same levels (see gitignore-levels.ts) the
// walk builds folder by folder, built only for the folders on the way to the paths asked about, each once.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { type IgnoreLevel, isIgnored, levelsAbove, levelsInside, loadIgnoreFactory, readIgnoreFile } from "./gitignore-levels.js";

/** Says of a walk-relative file path ("/"-separated) whether walkTree(root) would skip it. */
export type IgnoredFile = (path: string) => boolean;

export async function ignoredFiles(root: string): Promise<IgnoredFile> {
	const create = await loadIgnoreFactory();
	/** The levels in force inside each folder reached ("" for the root); null: the walk never enters it. */
	const inside = new Map<string, readonly IgnoreLevel[] | null>();
	const withOwn = (absolute: string, path: string, inherited: readonly IgnoreLevel[]): readonly IgnoreLevel[] => {
		const file = join(absolute, ".gitignore");
		// As the walk: only a .gitignore that is a file itself, not a link to one.
		const rules = plainFile(file) ? readIgnoreFile(create, file) : undefined;
		return rules ? [...inherited, { rules, prefix: "", strip: path === "" ? 0 : path.length + 1 }] : inherited;
	};
	inside.set("", withOwn(root, "", levelsAbove(create, root)));
	const levelsOf = (folder: string): readonly IgnoreLevel[] | null => {
		const known = inside.get(folder);
		if (known !== undefined) return known;
		const cut = folder.lastIndexOf("/");
		const parent = cut === -1 ? "" : folder.slice(0, cut);
		const name = folder.slice(cut + 1);
		const above = levelsOf(parent);
		const levels = above === null || name === ".git" || isIgnored(above, folder, true) ? null : withOwn(join(root, folder), folder, levelsInside(above, folder));
		inside.set(folder, levels);
		return levels;
	};
	return (path) => {
		const cut = path.lastIndexOf("/");
		const levels = levelsOf(cut === -1 ? "" : path.slice(0, cut));
		return levels === null || path.slice(cut + 1) === ".git" || isIgnored(levels, path, false);
	};
}

function plainFile(path: string): boolean {
	try {
		return lstatSync(path).isFile();
	} catch {
		return false;
	}
}

/** The order walkTree visits files in: folder by folder, each folder's entries by name. */
export function walkOrder(a: string, b: string): number {
	const left = a.split("/");
	const right = b.split("/");
	for (let index = 0; index < Math.min(left.length, right.length); index++) {
		const x = left[index]!;
		const y = right[index]!;
		if (x !== y) return x < y ? -1 : 1;
	}
	return left.length - right.length;
}
