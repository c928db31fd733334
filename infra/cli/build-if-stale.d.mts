export declare const SOURCE_DIRS: readonly string[];
export declare const CONFIG_FILES: readonly string[];
export declare const STAMP: string;
export declare const REBUILD_BUNDLE: string;
export declare function isStale(root: string): boolean;
export declare function bundleRebuild(root: string, outdir?: string): void;
export declare function build(root: string): number;
export declare function compilerArgs(root: string): string[];
export declare function finishBuild(root: string): void;
