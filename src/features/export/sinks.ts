import { MIME_TYPES, type ExportFormat } from './manifest';

/** Where an export's text goes, chunk by chunk. */
export interface ExportSink {
  write(chunk: string): Promise<void>;
  /** The file is complete: keep it. */
  close(): Promise<void>;
  /** Cancelled or failed: keep nothing. */
  abort(): Promise<void>;
  /** How the user gets the file: a file they chose, or a download. */
  readonly via: 'file' | 'download';
}

/** A file the user chose (File System Access API): written as it goes, nothing held in memory. */
async function fileSink(handle: FileSystemFileHandle): Promise<ExportSink> {
  const writable = await handle.createWritable();
  return {
    via: 'file',
    write: (chunk) => writable.write(chunk),
    close: () => writable.close(),
    // The browser writes to a temporary file and replaces the chosen one only on close.
    abort: () => writable.abort(),
  };
}

/** Offers a Blob as a download through an object URL, released once the browser has taken it. */
function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Without the File System Access API: each chunk becomes a Blob at once (the browser keeps Blob
 * data outside the JavaScript heap), and the Blob of all of them is downloaded at the end.
 */
export function blobSink(fileName: string, type: string, download: (blob: Blob, fileName: string) => void = downloadBlob): ExportSink {
  let parts: Blob[] = [];
  return {
    via: 'download',
    write: async (chunk) => {
      parts.push(new Blob([chunk], { type }));
    },
    close: async () => {
      download(new Blob(parts, { type }), fileName);
      parts = [];
    },
    abort: async () => {
      parts = [];
    },
  };
}

interface SaveFilePickerOptions {
  suggestedName?: string;
  types?: { description: string; accept: Record<string, string[]> }[];
}
type SaveFilePicker = (options?: SaveFilePickerOptions) => Promise<FileSystemFileHandle>;

const PICKER_TYPES: Record<ExportFormat, { description: string; accept: Record<string, string[]> }> = {
  jsonl: { description: 'JSON Lines', accept: { [MIME_TYPES.jsonl]: ['.jsonl'] } },
  csv: { description: 'CSV', accept: { [MIME_TYPES.csv]: ['.csv'] } },
  coco: { description: 'COCO JSON', accept: { [MIME_TYPES.coco]: ['.json'] } },
};

/**
 * Where to write: a file the user picks where the browser has `showSaveFilePicker` (it must be
 * called from the click), else a download. Null when the user closed the picker.
 */
export async function chooseSink(fileName: string, format: ExportFormat, win: Window = window): Promise<ExportSink | null> {
  const picker = (win as Window & { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  if (typeof picker !== 'function') return blobSink(fileName, MIME_TYPES[format]);
  try {
    const handle = await picker.call(win, { suggestedName: fileName, types: [PICKER_TYPES[format]] });
    return await fileSink(handle);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    throw error;
  }
}

const MANIFEST_TYPE = 'application/json';

/** Downloads an export's manifest (after its file was downloaded: the manifest goes beside it). */
export function downloadManifest(text: string, fileName: string, download: (blob: Blob, fileName: string) => void = downloadBlob): void {
  download(new Blob([text], { type: MANIFEST_TYPE }), fileName);
}

/**
 * Saves an export's manifest from a click: in a file the user picks where the browser offers the
 * picker, else as a download. False when the user closed the picker.
 */
export async function saveManifest(text: string, fileName: string, win: Window = window): Promise<boolean> {
  const picker = (win as Window & { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  if (typeof picker !== 'function') {
    downloadManifest(text, fileName);
    return true;
  }
  try {
    const handle = await picker.call(win, { suggestedName: fileName, types: [{ description: 'Manifest (JSON)', accept: { [MANIFEST_TYPE]: ['.json'] } }] });
    const writable = await handle.createWritable();
    await writable.write(text);
    await writable.close();
    return true;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return false;
    throw error;
  }
}
