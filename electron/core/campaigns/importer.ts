// Import: bytes → parsed, mapped and validated rows (the same pure function the renderer runs) →
// one campaign with every row, each given its external_reference_id, in one transaction.
import type { CsvImport, ImportOptions } from '../../../shared/domain/csv/index.ts';
import { cellsByHeader } from '../../../shared/domain/message-template.ts';
import type { Money } from '../../../shared/domain/money.ts';
import { DEFAULT_REPEAT_CHOICES, repeatSkipOf, type RepeatChoices } from '../../../shared/domain/skips.ts';
import { productChooser } from '../../../shared/domain/validation.ts';
import type { Db } from '../db/open.ts';
import { createCampaign, type StoreInParts, type CreatedCampaign, type Environment, type ProductSnapshot } from '../db/repos/campaigns.ts';
import { usedEmails, type NewRecipient } from '../db/repos/recipients.ts';
import { importFile } from '../workbook/import.ts';
import { validationProduct } from './products.ts';
import { storedValues } from './stored-rows.ts';

export interface ImportRequest {
  bytes: Uint8Array;
  environment: Environment;
  baseUrl: string;
  productId: number;
  product: ProductSnapshot;
  name: string;
  senderName: string;
  message?: string | null;
  defaultAmount?: Money | null;
  csv?: Pick<ImportOptions, 'delimiter' | 'mapping'>;
  /** A workbook's sheet to read (needed when several hold rows: SheetChoiceNeeded lists them); ignored for a CSV. */
  sheet?: string;
  /** What to do with repeated recipients (default: skip both kinds; shared/domain/skips.ts). */
  repeats?: RepeatChoices;
  /**
   * The products a gift column may name (the chosen country's orderable catalog): a file with such a
   * column sends each row its own product (schema 7). Without them, a row that names one is invalid.
   */
  products?: readonly CatalogProduct[];
}

/** A product of the catalog as the importer checks rows against it. */
export interface CatalogProduct {
  readonly productId: number;
  readonly product: ProductSnapshot;
}

/**
 * `message`: the campaign's default message, checked with each row's fields filled in as the campaign would send it.
 * `checkpoint`: called every few thousand rows checked (ValidateOptions.checkpoint): a stoppable create's chance to stop.
 */
export type PreviewRequest = Omit<ImportRequest, 'name' | 'senderName' | 'baseUrl'> & { checkpoint?: () => void };

/**
 * Validates without storing anything: what `giftbatch validate` and the import screen show. A CSV
 * or a workbook (.xlsx, .ods: its `sheet`), told apart by the bytes; throws SheetChoiceNeeded or
 * WorkbookError (electron/core/workbook) for a workbook whose sheet must be chosen or cannot be read.
 */
export function previewImport(db: Db, request: PreviewRequest): CsvImport {
  return importFile(request.bytes, validationProduct(request.productId, request.product), {
    ...request.csv,
    ...(request.sheet !== undefined ? { sheet: request.sheet } : {}),
    ...(request.defaultAmount ? { defaultAmount: request.defaultAmount } : {}),
    knownEmails: usedEmails(db, request.environment),
    // Every row's message as it will be sent (its own, else this one, fields filled in) is checked.
    ...(request.message ? { defaultMessage: request.message } : {}),
    ...(request.products ? { chooseProduct: productChooser(request.products.map((p) => validationProduct(p.productId, p.product))) } : {}),
    ...(request.checkpoint ? { checkpoint: request.checkpoint } : {}),
  });
}

/**
 * The validated rows as the recipients table takes them, each with the cells it was read from. A
 * valid row that repeats an earlier line's address, or whose recipient had a gift from an earlier
 * campaign, is stored skipped by its policy unless `repeats` says to send it (repeatSkipOf, the
 * rule the import step's figures count with: shared/domain/repeat-figures.ts).
 */
export function recipientsOf({ parsed, validation }: CsvImport, mainProductId: number, repeats: RepeatChoices = DEFAULT_REPEAT_CHOICES): NewRecipient[] {
  return validation.rows.map((row) => {
    const raw = row.raw;
    return {
      ...storedValues(row),
      line: row.line,
      skippedBy: row.errors.length > 0 ? null : repeatSkipOf(row, repeats),
      productId: row.productId === mainProductId ? null : row.productId,
      source: cellsByHeader(parsed.headers, raw),
    };
  });
}

/** The catalog's products the file's rows name, other than the campaign's own: the campaign keeps each as checked. */
function productsNamed(request: Pick<ImportRequest, 'productId' | 'products'>, preview: CsvImport): CatalogProduct[] {
  const named = new Set(preview.validation.rows.map((row) => row.productId));
  return (request.products ?? []).filter((p) => p.productId !== request.productId && named.has(p.productId));
}

/**
 * Stores a checked import as a new campaign with every row, in createCampaign's one transaction:
 * it commits whole or not at all (a process or thread that dies inside it leaves nothing). With
 * `parts` (the app's import worker), in short transactions behind a hidden campaign instead.
 */
export function storeImport(db: Db, request: ImportRequest, preview: CsvImport, now: number, parts?: StoreInParts): CreatedCampaign {
  return createCampaign(
    db,
    {
      name: request.name,
      environment: request.environment,
      baseUrl: request.baseUrl,
      productId: request.productId,
      product: request.product,
      senderName: request.senderName,
      message: request.message ?? null,
      defaultAmountMinor: request.defaultAmount?.minor ?? null,
      currency: request.product.currency,
      otherProducts: productsNamed(request, preview),
      // The file's gift column, as the import's mapping found it (or the person mapped it): the
      // campaign chooses a gift per row even when the column named only its own product.
      giftPerRow: preview.parsed.mapping.product !== undefined,
    },
    recipientsOf(preview, request.productId, request.repeats),
    now,
    parts,
  );
}

export function importCampaign(db: Db, request: ImportRequest, now: number): CreatedCampaign & { preview: CsvImport } {
  const preview = previewImport(db, request);
  return { ...storeImport(db, request, preview, now), preview };
}
