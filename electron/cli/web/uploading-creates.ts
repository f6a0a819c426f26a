// The browser shell's creates whose request has begun but whose body (the whole file, base64 in
// JSON) is still arriving. Over HTTP a Stop can overtake that body: the engine has not heard of the
// create yet and would answer 'not-running', and the create would then save. So the server learns a
// create's progressId from its request's PROGRESS_ID_HEADER before the body, and a stop for it is
// held here: answered 'stopping', and the create, once its body is in, answers 'stopped' without
// reaching the engine (nothing read, nothing stored). Once the create's call has been handed to
// the engine (whose handler tracks it from its first synchronous step), stops go to the engine.
// The desktop app's IPC and the CLI keep order, and do not go through here.

export interface Upload {
  /** A stop was asked for this create while its body was arriving. */
  readonly stopAsked: boolean;
  /** Its body is in and its call handed to the engine, or the request failed: stops go to the engine again. */
  end(): void;
}

export class UploadingCreates {
  private readonly uploads = new Map<string, { stopAsked: boolean }>();

  /**
   * A create's request named `progressId` before its body. Null when one is already uploading under
   * that id: this one is passed through untracked, and the engine refuses it if both reach it together.
   */
  begin(progressId: string): Upload | null {
    if (this.uploads.has(progressId)) return null;
    const entry = { stopAsked: false };
    this.uploads.set(progressId, entry);
    const uploads = this.uploads;
    return {
      get stopAsked() {
        return entry.stopAsked;
      },
      end() {
        if (uploads.get(progressId) === entry) uploads.delete(progressId);
      },
    };
  }

  /** A stop for `progressId`: true when its create is still uploading (the stop is held for it). */
  hold(progressId: string): boolean {
    const entry = this.uploads.get(progressId);
    if (!entry) return false;
    entry.stopAsked = true;
    return true;
  }
}
