// The desktop's own touches around the engine: the report's save dialog, an OS notification when
// a campaign finishes, and a small menu. (CSV files come in through the page's file picker, which
// in Electron is the native open dialog, and by drag-and-drop.)
import { writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { app, dialog, Menu, Notification, shell, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import { EXTERNAL_LINK_ALLOWLIST } from './window.ts';

export async function saveReportWithDialog(window: BrowserWindow | null, fileName: string, csv: string): Promise<string | null> {
  const options = { title: 'Save the delivery report', defaultPath: join(app.getPath('documents'), fileName), filters: [{ name: 'CSV', extensions: ['csv'] }] };
  const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  if (result.canceled || !result.filePath) return null;
  // Whole or absent: written beside the target, then renamed over it.
  const temp = `${result.filePath}.${process.pid}.tmp`;
  await writeFile(temp, csv, 'utf8');
  await rename(temp, result.filePath);
  return result.filePath;
}

export function notifyFinished(name: string, message: string): void {
  if (!Notification.isSupported()) return;
  new Notification({ title: `Giftbatch: ${name}`, body: message, silent: false }).show();
}

export function installMenu(): void {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      // A fixed https address of our own, from the allowlist.
      submenu: [{ label: 'Giftbatch website', click: () => void shell.openExternal(EXTERNAL_LINK_ALLOWLIST[0] ?? 'https://giftbatch.app/') /* eng-disable OPEN_EXTERNAL_JS_CHECK */ }],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
