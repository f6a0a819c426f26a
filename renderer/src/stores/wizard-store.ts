// The new-campaign wizard: product, recipients file and mapping, then the draft's rows to fix or
// skip, the cost, and the confirmed send. Before the draft exists nothing is stored (previewImport);
// after, every edit goes through rows:edit / rows:skip so the engine stays the one source of truth.
// Where the service's product record states no currency, the organiser says which one its amounts
// are in; that currency goes with every call that reads the product (list, preview, create), and
// the campaign's first order confirms it.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallInput, CallOutput, CampaignSummary, EnvironmentName, ErrorCode, EventPayload, ProductDto, RowDto } from '../../../shared/contract.ts';
import type { MappedField } from '../../../shared/domain/csv/headers.ts';
import type { RowState } from '../../../shared/domain/rows.ts';
import type { TemplateFormat } from '../../../shared/domain/file-formats.ts';
import type { Money } from '../../../shared/domain/money.ts';
import { DEFAULT_REPEAT_CHOICES, type RepeatChoices } from '../../../shared/domain/skips.ts';
import type { ProductForValidation } from '../../../shared/domain/validation.ts';
import { base64Size } from '../lib/base64.ts';
import { currencyCode, productForValidation, productLabel, unreadableLabel, type UnreadableProductDto } from '../lib/products.ts';
import type { DraftFilter } from '../lib/rows.ts';
import { parseDefaultAmount } from '../lib/validate-edit.ts';
import { settle, type StoreDeps } from './deps.ts';

export type Step = 'setup' | 'import' | 'review';
export type Preview = CallOutput<'campaigns:previewImport'>;
export type Preflight = CallOutput<'campaigns:preflight'>;
export type CsvOptions = NonNullable<CallInput<'campaigns:previewImport'>['csv']>;
export type Delimiter = ',' | ';' | '\t';
export type CreateProgress = Omit<EventPayload<'campaigns:createProgress'>, 'progressId'>;

export interface WizardFile {
  fileName: string;
  bytesBase64: string;
  size: number;
}

export interface RowEdit {
  name: string;
  email: string;
  amount: string | null;
  message: string | null;
  /** Another gift for the row (a product id); absent: it keeps its own. */
  product?: string;
}

type Status = 'idle' | 'loading' | 'ready' | 'failed';

/** What the service's availability answer says of one product's stock (null: it did not say). */
export interface ProductStock {
  productId: number;
  inStock: boolean | null;
  message: string | null;
}

export interface WizardState {
  step: Step;
  environment: EnvironmentName;
  country: string;
  products: ProductDto[];
  /** Records the service describes incompletely: listed with their problem, never dropped. */
  unreadable: UnreadableProductDto[];
  /** The organiser's currency for products whose record states none; null until they choose one. */
  currency: string | null;
  currencyError: string | null;
  productsStatus: Status;
  productsError: string | null;
  /** The error's code: 'service-auth' (the key was refused) is said as such, with the way to Environments & key. */
  productsErrorCode: ErrorCode | null;
  productSearch: string;
  showUnavailable: boolean;
  productId: number | null;
  /**
   * The supplier's stock of the product picked, asked once when it is picked (products:availability);
   * null until the answer for the product picked now comes, or when none came.
   */
  stock: ProductStock | null;
  name: string;
  senderName: string;
  message: string;
  defaultAmount: string;
  file: WizardFile | null;
  fileError: string | null;
  csv: CsvOptions;
  /** The workbook sheet the person chose; null until they choose one (a workbook with one sheet of rows needs none). */
  sheet: string | null;
  /** Repeated recipients, decided before the draft is made: skipped unless the person chose to send them. */
  repeats: RepeatChoices;
  preview: Preview | null;
  previewStatus: Status;
  previewError: string | null;
  draft: CampaignSummary | null;
  /**
   * The draft was opened here from elsewhere (openDraft: the campaigns list, Review and send), not
   * made in this wizard: it is no new campaign in progress (newCampaignInProgress).
   */
  openedDraft: boolean;
  creating: boolean;
  /** How far the draft being saved is (the engine's `campaigns:createProgress`); null when none is being saved or nothing was heard yet. */
  createProgress: CreateProgress | null;
  /** The person asked to stop the draft being saved; the create has not answered yet. */
  createStopping: boolean;
  /** The save was stopped: what the engine said (nothing was saved). Null otherwise; cleared by the next save. */
  createStopped: string | null;
  /**
   * A stop that did not take while the create still runs, in words: too late (the draft is being
   * saved with all its rows; Stop is done), or it did not reach this save (Stop can be pressed
   * again). Never "Stopping…" for a save that goes on. Cleared when the create answers.
   */
  createStopLate: { message: string; canRetry: boolean } | null;
  createError: string | null;
  rows: RowDto[];
  rowsStatus: Status;
  rowsError: string | null;
  rowFilter: DraftFilter;
  rowBusy: number | null;
  rowError: { rowId: number; message: string } | null;
  preflight: Preflight | null;
  preflightStatus: Status;
  confirmOpen: boolean;
  sending: boolean;
  sendError: string | null;

  start(environment: EnvironmentName, options?: { sample?: boolean }): Promise<void>;
  setCountry(country: string): Promise<void>;
  /**
   * States the currency of the products whose record gives none and reads the catalog again with it;
   * `choose` selects that product once it can be ordered. False when the code is not three letters
   * or the catalog could not be read (the reason is in currencyError or productsError).
   */
  setCurrency(text: string, options?: { choose?: number }): Promise<boolean>;
  setProductSearch(search: string): void;
  setShowUnavailable(show: boolean): void;
  chooseProduct(productId: number): void;
  setText(field: 'name' | 'senderName' | 'message' | 'defaultAmount', value: string): void;
  setFile(file: WizardFile): Promise<void>;
  rejectFile(message: string): void;
  /** The recipient list template's file (empty, with the columns the import reads), or null (fileError says why). */
  templateFile(format: TemplateFormat): Promise<CallOutput<'app:template'> | null>;
  setDelimiter(delimiter: Delimiter): Promise<void>;
  setMapping(field: MappedField, column: number | null): Promise<void>;
  /** Reads the workbook's sheet `name` (its own columns: the mapping starts again) and keeps it for the draft. */
  chooseSheet(name: string): Promise<void>;
  /** 'send': rows repeating an earlier line (`inCampaign`) or earlier campaigns' recipients (`earlier`) are kept in the draft. */
  setRepeats(kind: keyof RepeatChoices, choice: RepeatChoices[keyof RepeatChoices]): void;
  runPreview(): Promise<void>;
  goTo(step: Step): void;
  createDraft(): Promise<boolean>;
  /** Asks the engine to stop the draft being saved (campaigns:stopCreate); the create's answer says how it ended. */
  stopCreate(): Promise<void>;
  openDraft(campaign: CampaignSummary): Promise<void>;
  /**
   * Lets go of campaign `campaignId` when the store holds it (a sent campaign's rows to fix, closed on
   * its screen, in the panel's own store): the store then holds nothing of that campaign.
   */
  closeDraft(campaignId: string): void;
  setRowFilter(filter: DraftFilter): void;
  editRow(rowId: number, edit: RowEdit): Promise<boolean>;
  skipRow(rowId: number): Promise<void>;
  unskipRow(rowId: number): Promise<void>;
  openConfirm(): void;
  cancelConfirm(): void;
  /** `allowRepeats`: the person confirmed a second gift to recipients who already have one from this environment. */
  send(opts?: { allowRepeats?: boolean }): Promise<CampaignSummary | null>;
}

export type WizardStore = StoreApi<WizardState>;

const ROWS_PER_CALL = 5000;
/** Rows asked for by id in one call (the contract takes up to 5,000). */
const IDS_PER_CALL = 1000;

export interface WizardOptions {
  /**
   * The store holds a sent campaign's rows to fix (stores.fixRows, FixRowsPanel), not a draft under
   * review: it reads only the rows the panel lists (rowsToFixStates), and the rows corrected or
   * skipped in it, never every row of the campaign.
   */
  rowsToFix?: boolean;
}

/**
 * The states of the rows the rows to fix panel can list (its rowsToFixIds): those that need fixing
 * and, on a finished campaign, the ready ones (corrected before, not sent yet). A paused campaign's
 * ready rows are its rows left to send, for Resume: never read here.
 */
export function rowsToFixStates(sendState: CampaignSummary['sendState']): RowState[] {
  return sendState === 'done' ? ['invalid', 'ready'] : ['invalid'];
}

export function selectedProduct(s: Pick<WizardState, 'products' | 'productId'>): ProductDto | null {
  return s.products.find((p) => p.id === s.productId) ?? null;
}

/** A product to check a row against, and the campaign's default amount (DraftRow's RowValidation). */
export interface RowCheck {
  product: ProductForValidation;
  defaultAmount: Money | undefined;
}

/**
 * What an edited draft row is checked against as it is typed, by the id of the product it is ordered
 * as: that product (when the loaded catalog has it), and the default amount (the one typed in the
 * setup step, or a reopened draft's own: openDraft) in the campaign's currency, as the engine keeps
 * it: a row of a gift in another currency is then told the default is not in its currency, as the
 * engine tells it on save.
 */
export function rowValidations(s: Pick<WizardState, 'products' | 'defaultAmount' | 'draft' | 'productId'>): Map<number, RowCheck> {
  const byId = new Map<number, RowCheck>();
  const chosen = selectedProduct(s);
  const campaignCurrency = s.draft?.currency ?? chosen?.currency ?? null;
  for (const product of s.products) {
    const p = productForValidation(product);
    if (p) byId.set(product.id, { product: p, defaultAmount: parseDefaultAmount(s.defaultAmount, campaignCurrency ?? p.currency) });
  }
  return byId;
}

/**
 * The new campaign the organiser is preparing and has not saved as a draft, in words (its name, and its
 * file when one is chosen), or null when the wizard holds nothing that opening another campaign in it
 * would lose: nothing chosen yet, or a draft (saved: it stays in the campaigns list).
 */
export function unsavedNewCampaign(s: Pick<WizardState, 'draft' | 'creating' | 'file' | 'productId' | 'name' | 'senderName' | 'message' | 'defaultAmount'>): string | null {
  if (s.draft !== null) return null;
  const started = s.creating || s.file !== null || s.productId !== null || [s.senderName, s.message, s.defaultAmount].some((t) => t.trim() !== '');
  if (!started) return null;
  const name = s.name.trim() === '' ? 'a new campaign' : `“${s.name.trim()}”`;
  return s.file ? `${name}, with ${s.file.fileName}` : name;
}

/**
 * The new campaign the organiser is preparing in the wizard, in words, or null when there is none: one
 * not saved yet (unsavedNewCampaign), or the draft they saved from it and are reviewing (its rows), until
 * it is sent. A draft opened from elsewhere (openDraft) is none. "New campaign" goes back to it as it
 * is; Start over empties the wizard.
 */
export function newCampaignInProgress(s: Pick<WizardState, 'draft' | 'openedDraft' | 'creating' | 'file' | 'productId' | 'name' | 'senderName' | 'message' | 'defaultAmount'>): string | null {
  if (s.draft === null) return unsavedNewCampaign(s);
  if (s.openedDraft || s.draft.sendState !== 'draft') return null;
  return `“${s.draft.name}”`;
}

/** What still stops the first step from moving on, in words; empty when it can. */
export function setupProblems(s: Pick<WizardState, 'products' | 'productId' | 'name' | 'senderName' | 'defaultAmount'>): string[] {
  const problems: string[] = [];
  const product = selectedProduct(s);
  if (!product) problems.push('Choose a product.');
  if (s.name.trim() === '') problems.push('Give the campaign a name.');
  if (s.senderName.trim() === '') problems.push('Enter the sender name recipients will see.');
  return problems;
}

function defaultCampaignName(now: number): string {
  const d = new Date(now);
  return `Campaign ${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function initialData(environment: EnvironmentName, now: number): Omit<WizardState, keyof WizardActions> {
  return {
    step: 'setup',
    environment,
    country: 'US',
    products: [],
    unreadable: [],
    currency: null,
    currencyError: null,
    productsStatus: 'idle',
    productsError: null,
    productsErrorCode: null,
    productSearch: '',
    showUnavailable: false,
    productId: null,
    stock: null,
    name: defaultCampaignName(now),
    senderName: '',
    message: '',
    defaultAmount: '',
    file: null,
    fileError: null,
    csv: {},
    sheet: null,
    repeats: DEFAULT_REPEAT_CHOICES,
    preview: null,
    previewStatus: 'idle',
    previewError: null,
    draft: null,
    openedDraft: false,
    creating: false,
    createProgress: null,
    createStopping: false,
    createStopped: null,
    createStopLate: null,
    createError: null,
    rows: [],
    rowsStatus: 'idle',
    rowsError: null,
    rowFilter: 'all',
    rowBusy: null,
    rowError: null,
    preflight: null,
    preflightStatus: 'idle',
    confirmOpen: false,
    sending: false,
    sendError: null,
  };
}

/** The `currency` input of the calls that read the product, when the organiser stated one. */
function currencyInput(s: Pick<WizardState, 'currency'>): { currency?: string } {
  return s.currency ? { currency: s.currency } : {};
}

/** The `sheet` input of the import calls, once the person chose one. */
function sheetInput(s: Pick<WizardState, 'sheet'>): { sheet?: string } {
  return s.sheet !== null ? { sheet: s.sheet } : {};
}

type WizardActions = {
  [K in keyof WizardState as WizardState[K] extends (...args: never[]) => unknown ? K : never]: WizardState[K];
};

/** A stop the engine did not find this save for (it had not reached the engine yet): the save goes on. */
const STOP_MISSED = 'The stop did not reach this save, which goes on. Press Stop saving again to stop it.';

export function createWizardStore(deps: StoreDeps, options: WizardOptions = {}): WizardStore {
  let createCount = 0;
  /** rowsToFix: the rows acted on in the panel (edited, skipped, put back), read again even when they left rowsToFixStates. */
  let touched = new Set<number>();
  /** The progressId of the create running now, the one Stop names. */
  let runningCreate: string | null = null;
  let previewSeq = 0;
  let productsSeq = 0;

  return createStore<WizardState>()((set, get) => {
    /** Every row of the campaign that `filter` names, page after page; null when a call failed (said in rowsError) or another campaign is open by then. */
    const pageRows = async (campaignId: string, filter: { states?: RowState[]; ids?: number[] }): Promise<RowDto[] | null> => {
      const all: RowDto[] = [];
      for (let offset = 0; ; offset += ROWS_PER_CALL) {
        const result = await settle(deps.api['campaigns:rows']({ campaignId, offset, limit: ROWS_PER_CALL, ...filter }));
        if (get().draft?.id !== campaignId) return null;
        if (!result.ok) {
          set({ rowsStatus: 'failed', rowsError: result.error.message });
          return null;
        }
        all.push(...result.value.rows);
        if (result.value.rows.length < ROWS_PER_CALL || all.length >= result.value.total) return all;
      }
    };

    /** The rows to fix panel's rows: those in rowsToFixStates, then those acted on in it that left them, in line order. */
    const rowsToFix = async (campaign: CampaignSummary): Promise<RowDto[] | null> => {
      const listed = await pageRows(campaign.id, { states: rowsToFixStates(campaign.sendState) });
      if (!listed) return null;
      const have = new Set(listed.map((r) => r.id));
      const missing = [...touched].filter((id) => !have.has(id));
      for (let i = 0; i < missing.length; i += IDS_PER_CALL) {
        const more = await pageRows(campaign.id, { ids: missing.slice(i, i + IDS_PER_CALL) });
        if (!more) return null;
        listed.push(...more);
      }
      return missing.length === 0 ? listed : listed.sort((a, b) => a.id - b.id);
    };

    const loadRows = async (campaignId: string): Promise<void> => {
      set({ rowsStatus: get().rows.length === 0 ? 'loading' : get().rowsStatus });
      const draft = get().draft;
      const all = options.rowsToFix && draft?.id === campaignId ? await rowsToFix(draft) : await pageRows(campaignId, {});
      if (!all) return;
      set({ rows: all, rowsStatus: 'ready', rowsError: null });
    };

    const loadPreflight = async (campaignId: string): Promise<void> => {
      set({ preflightStatus: 'loading' });
      const result = await settle(deps.api['campaigns:preflight']({ campaignId }));
      if (get().draft?.id !== campaignId) return;
      if (!result.ok) {
        set({ preflightStatus: 'failed', preflight: { ok: false, problems: [result.error.message], rowsToSend: 0, totals: [], availability: null, repeatRecipients: { count: 0, lines: [] }, accountChanged: null, repeatsInCampaign: { people: 0, rows: 0 }, byProduct: [] } });
        return;
      }
      set({ preflight: result.value, preflightStatus: 'ready' });
    };

    const refreshDraft = async (campaignId: string): Promise<void> => {
      const summary = await settle(deps.api['campaigns:get']({ campaignId }));
      if (summary.ok && get().draft?.id === campaignId) set({ draft: summary.value });
      await Promise.all([loadRows(campaignId), loadPreflight(campaignId)]);
    };

    /**
     * Reads the catalog of the current country (in the stated currency, if any). `keepSelection`: the
     * chosen product stays chosen if it is still orderable, and its preview is read again only if its
     * currency changed.
     */
    const loadProducts = async (keepSelection: boolean): Promise<boolean> => {
      const seq = ++productsSeq;
      const { environment, country } = get();
      const before = selectedProduct(get());
      set(
        keepSelection
          ? { productsStatus: 'loading', productsError: null, productsErrorCode: null }
          : { productsStatus: 'loading', productsError: null, productsErrorCode: null, products: [], unreadable: [], productId: null },
      );
      const result = await settle(deps.api['products:list']({ environment, country, ...currencyInput(get()) }));
      if (seq !== productsSeq) return false;
      if (!result.ok) {
        set({ productsStatus: 'failed', productsError: result.error.message, productsErrorCode: result.error.code });
        return false;
      }
      const { products, unreadable } = result.value;
      set({ productsStatus: 'ready', products, unreadable });
      if (keepSelection && before) {
        const after = products.find((p) => p.id === before.id && p.unorderableReason === null);
        if (!after) set({ productId: null, preview: null, previewStatus: 'idle' });
        else if (after.currency !== before.currency) set({ preview: null, previewStatus: 'idle' });
      }
      return true;
    };

    /** One availability call for the product just picked; an answer for a product picked before is dropped. */
    const askStock = async (productId: number): Promise<void> => {
      const result = await settle(deps.api['products:availability']({ environment: get().environment, productId }));
      if (!result.ok || get().productId !== productId) return;
      set({ stock: { productId, ...result.value } });
    };

    const replaceRow = (row: RowDto): void => {
      set({ rows: get().rows.map((r) => (r.id === row.id ? row : r)) });
    };

    const rowAction = async (rowId: number, call: () => Promise<RowDto | string>): Promise<boolean> => {
      set({ rowBusy: rowId, rowError: null });
      if (options.rowsToFix) touched.add(rowId);
      const outcome = await call();
      if (typeof outcome === 'string') {
        set({ rowBusy: null, rowError: { rowId, message: outcome } });
        return false;
      }
      replaceRow(outcome);
      set({ rowBusy: null });
      const draft = get().draft;
      // Other rows' duplicate flags and the totals depend on this one: read them again.
      if (draft) await refreshDraft(draft.id);
      return true;
    };

    return {
      ...initialData('simulator', deps.now()),

      async start(environment, options = {}) {
        set(initialData(environment, deps.now()));
        await get().setCountry('US');
        if (!options.sample) return;
        set({ name: 'My first simulated campaign', senderName: 'The Giftbatch team', message: 'Thank you for being part of our event!' });
        // A fixed-price product needs no amounts in the file, which suits the sample.
        const first = get().products.find((p) => p.unorderableReason === null && p.price.kind === 'fixed');
        if (first) set({ productId: first.id });
        const sample = await settle(deps.api['app:sampleCsv']({}));
        if (!sample.ok) {
          set({ fileError: sample.error.message });
          return;
        }
        const { fileName, bytesBase64 } = sample.value;
        set({ step: 'import' });
        await get().setFile({ fileName, bytesBase64, size: base64Size(bytesBase64) });
      },

      async setCountry(country) {
        // A currency stated for one country's catalog says nothing about another's.
        set({ country, currency: null, currencyError: null });
        await loadProducts(false);
      },

      async setCurrency(text, options = {}) {
        const code = currencyCode(text);
        if (!code) {
          set({ currencyError: `"${text.trim()}" is not a currency code. Use its three letters, such as USD or EUR.` });
          return false;
        }
        set({ currency: code, currencyError: null });
        if (!(await loadProducts(true))) return false;
        if (options.choose === undefined) return true;
        const s = get();
        const product = s.products.find((p) => p.id === options.choose);
        const still = s.unreadable.find((u) => u.id === options.choose);
        if (product && product.unorderableReason === null) get().chooseProduct(product.id);
        else if (product) set({ currencyError: `${productLabel(product)} reads in ${code} but cannot be ordered: ${product.unorderableReason}.` });
        else if (still) set({ currencyError: `${unreadableLabel(still)} still cannot be read in ${code}: ${still.problem}.` });
        return true;
      },

      setProductSearch(productSearch) {
        set({ productSearch });
      },

      setShowUnavailable(showUnavailable) {
        set({ showUnavailable });
      },

      chooseProduct(productId) {
        const product = get().products.find((p) => p.id === productId);
        if (!product || product.unorderableReason !== null) return;
        set({ productId, stock: null, preview: null, previewStatus: 'idle' });
        void askStock(productId);
      },

      setText(field, value) {
        set({ [field]: value } as Pick<WizardState, typeof field>);
        // The preview checked the rows with these: it is made again with the new value.
        if (field === 'defaultAmount' || field === 'message') set({ preview: null, previewStatus: 'idle' });
      },

      async setFile(file) {
        set({ file, fileError: null, csv: {}, sheet: null, preview: null, previewStatus: 'idle' });
        await get().runPreview();
      },

      rejectFile(message) {
        // The file refused is the person's last choice: the one before it, its preview and its error go, so
        // the step never shows another file's name or a second, older error beside this one.
        set({ file: null, fileError: message, csv: {}, sheet: null, preview: null, previewStatus: 'idle', previewError: null });
      },

      async templateFile(format) {
        const result = await settle(deps.api['app:template']({ format }));
        if (!result.ok) {
          set({ fileError: result.error.message });
          return null;
        }
        return result.value;
      },

      async setDelimiter(delimiter) {
        set({ csv: { ...get().csv, delimiter } });
        await get().runPreview();
      },

      async setMapping(field, column) {
        set({ csv: { ...get().csv, mapping: { ...get().csv.mapping, [field]: column } } });
        await get().runPreview();
      },

      async chooseSheet(name) {
        if (get().sheet === name) return;
        set({ sheet: name, csv: {} });
        await get().runPreview();
      },

      setRepeats(kind, choice) {
        set({ repeats: { ...get().repeats, [kind]: choice } });
      },

      async runPreview() {
        const s = get();
        if (!s.file || s.productId === null) return;
        const seq = ++previewSeq;
        set({ previewStatus: 'loading', previewError: null });
        const result = await settle(
          deps.api['campaigns:previewImport']({
            fileName: s.file.fileName,
            bytesBase64: s.file.bytesBase64,
            environment: s.environment,
            productId: s.productId,
            country: s.country,
            ...currencyInput(s),
            defaultAmount: s.defaultAmount.trim() === '' ? null : s.defaultAmount.trim(),
            csv: s.csv,
            ...sheetInput(s),
            message: s.message.trim() === '' ? null : s.message.trim(),
            // The import step reads the totals and defaultMessage, never the rows (the review step reads the draft's): a large file's stay in the engine.
            rows: 'none',
          }),
        );
        if (seq !== previewSeq) return;
        if (!result.ok) {
          set({ previewStatus: 'failed', previewError: result.error.message, preview: null });
          return;
        }
        set({ previewStatus: 'ready', preview: result.value });
      },

      goTo(step) {
        set({ step });
        if (step === 'import' && get().file && get().previewStatus === 'idle') void get().runPreview();
      },

      async createDraft() {
        const s = get();
        if (!s.file || s.productId === null) return false;
        set({ creating: true, createProgress: null, createStopping: false, createStopped: null, createStopLate: null, createError: null });
        // This window's own name for the create: another window's progress (the browser shell's
        // socket tells every window) is not ours. None is heard once the call has answered.
        const progressId = `create ${++createCount} ${Math.random().toString(36).slice(2, 12)}`;
        runningCreate = progressId;
        const stopListening = deps.api.on('campaigns:createProgress', ({ progressId: id, phase, stored, total }) => {
          if (id === progressId && get().creating) set({ createProgress: { phase, stored, total } });
        });
        const result = await settle(
          deps.api['campaigns:create']({
            fileName: s.file.fileName,
            bytesBase64: s.file.bytesBase64,
            environment: s.environment,
            productId: s.productId,
            country: s.country,
            ...currencyInput(s),
            name: s.name.trim(),
            senderName: s.senderName.trim(),
            message: s.message.trim() === '' ? null : s.message.trim(),
            defaultAmount: s.defaultAmount.trim() === '' ? null : s.defaultAmount.trim(),
            csv: s.csv,
            ...sheetInput(s),
            repeats: s.repeats,
            progressId,
          }),
        ).finally(() => {
          stopListening();
          if (runningCreate === progressId) runningCreate = null;
        });
        if (!result.ok) {
          // Stopped on request: nothing was saved, and the step keeps the file and every choice to save again.
          if (result.error.code === 'stopped') set({ creating: false, createProgress: null, createStopping: false, createStopLate: null, createStopped: result.error.message });
          else set({ creating: false, createProgress: null, createStopping: false, createStopLate: null, createError: result.error.message });
          return false;
        }
        set({ creating: false, createProgress: null, createStopping: false, createStopLate: null, draft: result.value, step: 'review', rows: [], rowFilter: 'all' });
        await Promise.all([loadRows(result.value.id), loadPreflight(result.value.id)]);
        return true;
      },

      async stopCreate() {
        const progressId = runningCreate;
        if (progressId === null || !get().creating || get().createStopping || get().createStopLate?.canRetry === false) return;
        set({ createStopping: true, createStopLate: null });
        const result = await settle(deps.api['campaigns:stopCreate']({ progressId }));
        // The create answered meanwhile: its answer (above) says what happened.
        if (runningCreate !== progressId) return;
        if (!result.ok) set({ createStopping: false, createError: `Could not stop saving the draft: ${result.error.message}` });
        // 'stopping': the create answers 'stopped' (above). Otherwise the save goes on, and the window says so until it answers.
        else if (result.value.outcome === 'saved') set({ createStopping: false, createStopLate: { message: result.value.message, canRetry: false } });
        else if (result.value.outcome === 'not-running') set({ createStopping: false, createStopLate: { message: STOP_MISSED, canRetry: true } });
      },

      async openDraft(campaign) {
        // The catalog of the campaign's country gives the gifts its row editor offers, read as the
        // new-campaign flow reads it; in the campaign's currency, as rows:edit reads it for a product
        // whose record states none. A product that stated no country leaves the catalog empty.
        const country = campaign.countryCode;
        touched = new Set();
        set({
          ...initialData(campaign.environment, deps.now()),
          draft: campaign,
          openedDraft: true,
          step: 'review',
          name: campaign.name,
          // The campaign's default amount, as the setup step would hold it: the row check reads it from here (rowValidations).
          defaultAmount: campaign.defaultAmount?.amount ?? '',
          ...(country !== null ? { country, currency: campaign.currency } : {}),
        });
        await Promise.all([loadRows(campaign.id), loadPreflight(campaign.id), ...(country !== null ? [loadProducts(false)] : [])]);
      },

      closeDraft(campaignId) {
        if (get().draft?.id !== campaignId) return;
        touched = new Set();
        set({ ...initialData(get().environment, deps.now()) });
      },

      setRowFilter(rowFilter) {
        set({ rowFilter });
      },

      editRow(rowId, edit) {
        return rowAction(rowId, async () => {
          const r = await settle(deps.api['rows:edit']({ rowId, ...edit }));
          return r.ok ? r.value : r.error.message;
        });
      },

      async skipRow(rowId) {
        await rowAction(rowId, async () => {
          const r = await settle(deps.api['rows:skip']({ rowId }));
          return r.ok ? r.value : r.error.message;
        });
      },

      async unskipRow(rowId) {
        await rowAction(rowId, async () => {
          const r = await settle(deps.api['rows:unskip']({ rowId }));
          return r.ok ? r.value : r.error.message;
        });
      },

      openConfirm() {
        set({ confirmOpen: true, sendError: null });
        const draft = get().draft;
        if (draft) void loadPreflight(draft.id);
      },

      cancelConfirm() {
        set({ confirmOpen: false });
      },

      async send(opts = {}) {
        const draft = get().draft;
        if (!draft) return null;
        set({ sending: true, sendError: null });
        // The totals the confirmation showed: the engine sends nothing if the rows add up to more by now.
        const totals = get().preflight?.totals;
        const result = await settle(
          deps.api['campaigns:send']({ campaignId: draft.id, confirmed: true, ...(totals ? { totals } : {}), ...(opts.allowRepeats ? { allowRepeats: true } : {}) }),
        );
        if (!result.ok) {
          set({ sending: false, sendError: result.error.message });
          return null;
        }
        set({ ...initialData(get().environment, deps.now()) });
        return result.value;
      },
    };
  });
}
