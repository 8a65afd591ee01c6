// Calls `changed` (debounced) when a file may have changed. The directory is watched, not the
// file: editors save by writing a new file and renaming it over the old one, and Kubernetes swaps
// a ConfigMap's files by moving a symlink, both of which end a watch on the file itself.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export function watchFile(path: string, debounceMs: number, changed: () => void, onError: (err: Error) => void): () => void {
  const name = basename(path);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
      // Kubernetes' `..data` symlink, or the file itself; other files of the directory are not ours.
      if (file !== null && file !== name && !file.startsWith('..')) return;
      clearTimeout(timer);
      timer = setTimeout(changed, debounceMs);
    });
    watcher.on('error', onError);
  } catch (err) {
    onError(err as Error);
  }
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}
