import type { Plugin } from 'vite';

/**
 * Marks the chunks a pull's answer runs for the first time (the review's list and item, the payload
 * viewer, the local store and its library, the virtualizer) with V8's explicit compile hint
 * `//# allFunctionsCalledOnLoad`: Chromium (136+) then compiles their functions when the chunk
 * loads, on a streaming thread, instead of one at a time on the main thread the first time each is
 * called. Without it, a page's first pull compiled ~280 functions (~45 ms of CPU) between the
 * answer and its items painted (bench:ui, Chrome's trace: V8.CompileCode). Other browsers read a
 * comment. Only chunks loaded on demand: the first page's code is compiled as it runs at start.
 */
const ON_THE_PULL_PATH = [
  /src[\\/]features[\\/]review[\\/]/,
  /src[\\/]components[\\/]payload[\\/]/,
  /src[\\/]domain[\\/](payload|store)[\\/]/,
  /node_modules[\\/](dexie|@tanstack[\\/](react-virtual|virtual-core))[\\/]/,
];
const HINT = '//# allFunctionsCalledOnLoad\n';

export function compileHints(): Plugin {
  return {
    name: 'dds:compile-hints',
    apply: 'build',
    // After minifying, which drops comments, and after Vite's own last touches: the hint belongs at
    // the top of the file, and Vite puts its preload map (`__vite__mapDeps`) at the top of chunks
    // that load others, which had left the review route's hint below it. The file's name (its hash)
    // was given before: the hint is added by the same rule to the same code, so one content keeps
    // one name.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle))
          if (chunk.type === 'chunk' && !chunk.isEntry && chunk.moduleIds.some((id) => ON_THE_PULL_PATH.some((path) => path.test(id))))
            chunk.code = HINT + chunk.code;
      },
    },
  };
}
