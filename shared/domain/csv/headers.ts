// Which column holds which field, guessed from the header names of real exports (Eventbrite,
// Google Forms, German and Korean Excel) and correctable by the person in the mapping step.

/** `product`: the gift of each row (a product id, or a product's exact name), for a file of several tiers. */
export const MAPPED_FIELDS = ['email', 'name', 'firstName', 'lastName', 'amount', 'message', 'product'] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];

/** Column index (0-based) for each field; a field that is absent is not mapped. */
export type ColumnMapping = Partial<Record<MappedField, number>>;
/** A caller's correction: a number maps the field to that column, null unmaps it. */
export type MappingOverride = Partial<Record<MappedField, number | null>>;

// Compared after normalizeHeader, so "E-Mail-Adresse", "e-mail adresse" and "EMAIL_ADRESSE" are
// the same. Earlier entries win when several columns match the same field.
const SYNONYMS: Readonly<Record<MappedField, readonly string[]>> = {
  email: [
    'email', 'emailaddress', 'mail', 'emailadresse', 'mailadresse', 'attendeeemail', 'recipientemail',
    'recipientemailaddress', 'attendeeemailaddress', 'courriel', 'adresseemail', 'correoelectronico',
    '이메일', '이메일주소', '메일', '메일주소', '電子メール', 'メールアドレス',
  ],
  name: [
    'name', 'fullname', 'recipientname', 'attendeename', 'namefull',
    'nameofrecipient', 'displayname', 'vollständigername', 'nom', 'nomcomplet', 'nombre',
    '이름', '성명', '수신자', '수신자이름', '받는사람', '氏名', '名前',
  ],
  firstName: ['firstname', 'givenname', 'first', 'forename', 'vorname', 'prénom', 'prenom', 'attendeefirstname'],
  lastName: ['lastname', 'surname', 'familyname', 'last', 'nachname', 'familienname', 'nomdefamille', 'attendeelastname'],
  amount: [
    'amount', 'value', 'giftamount', 'giftvalue', 'cardvalue', 'giftcardamount', 'giftcardvalue', 'betrag',
    'wert', 'gutscheinwert', 'montant', 'importe', '금액', '액면가', '금액원', '金額',
  ],
  message: [
    'message', 'note', 'notes', 'giftmessage', 'personalmessage', 'messagetorecipient', 'nachricht',
    'notiz', 'grußbotschaft', 'mitteilung', 'comment', 'comments', '메시지', '메세지', '메모', 'メッセージ',
  ],
  // Only names that cannot mean an amount: a "Gift" or "Gift card" column of a real export often holds one.
  product: [
    'product', 'productid', 'productname', 'giftproduct', 'rewardproduct', 'produkt', 'produktid', 'produit',
    'producto', '상품', '상품id', '商品', '商品id',
  ],
};

const SYNONYM_RANK: ReadonlyMap<string, { field: MappedField; rank: number }[]> = buildRanks();

function buildRanks(): Map<string, { field: MappedField; rank: number }[]> {
  const map = new Map<string, { field: MappedField; rank: number }[]>();
  for (const field of MAPPED_FIELDS) {
    SYNONYMS[field].forEach((name, rank) => {
      const list = map.get(name) ?? [];
      list.push({ field, rank });
      map.set(name, list);
    });
  }
  return map;
}

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/** "E-Mail-Adresse " → "emailadresse"; "Name (full)" → "namefull". */
export function normalizeHeader(header: string): string {
  return header.normalize('NFKC').toLowerCase().replace(NOT_LETTER_OR_DIGIT, '');
}

// Fallbacks, used only when no header matched a field exactly: Google Forms asks "Your name" or
// "What is your e-mail?" in the header itself.
const NOT_A_PERSON_NAME = /first|last|given|sur|family|user|company|organi[sz]ation|firma|event|ticket|product|file|buyer|purchaser|sender|vor|nach/;

function fallbackField(normalized: string): MappedField | null {
  if (normalized.includes('email') || normalized.includes('이메일') || normalized.endsWith('mail')) return 'email';
  if ((normalized.includes('name') || normalized.includes('이름')) && !NOT_A_PERSON_NAME.test(normalized)) return 'name';
  if (normalized.includes('message') || normalized.includes('nachricht') || normalized.includes('메시지')) return 'message';
  if (normalized.includes('amount') || normalized.includes('betrag') || normalized.includes('금액')) return 'amount';
  return null;
}

/** Guesses the mapping from header names: exact synonyms first, then the contains-fallbacks. */
export function detectMapping(headers: readonly string[]): ColumnMapping {
  const best: Partial<Record<MappedField, { index: number; rank: number }>> = {};
  const normalized = headers.map(normalizeHeader);
  normalized.forEach((key, index) => {
    for (const { field, rank } of SYNONYM_RANK.get(key) ?? []) {
      const current = best[field];
      if (!current || rank < current.rank) best[field] = { index, rank };
    }
  });
  const mapping: ColumnMapping = {};
  for (const field of MAPPED_FIELDS) {
    const hit = best[field];
    if (hit) mapping[field] = hit.index;
  }
  const taken = new Set(Object.values(mapping));
  normalized.forEach((key, index) => {
    if (taken.has(index) || key === '') return;
    const field = fallbackField(key);
    if (field === null || mapping[field] !== undefined) return;
    if (field === 'name' && (mapping.firstName !== undefined || mapping.lastName !== undefined)) return;
    mapping[field] = index;
    taken.add(index);
  });
  return mapping;
}

/** The detected mapping with the caller's corrections applied; indices outside the header are reported. */
export function applyMappingOverride(
  detected: ColumnMapping,
  override: MappingOverride | undefined,
  columnCount: number,
): { mapping: ColumnMapping; invalid: { field: MappedField; index: number }[] } {
  const mapping: ColumnMapping = { ...detected };
  const invalid: { field: MappedField; index: number }[] = [];
  if (!override) return { mapping, invalid };
  for (const field of MAPPED_FIELDS) {
    if (!(field in override)) continue;
    const index = override[field];
    if (index === null || index === undefined) {
      delete mapping[field];
    } else if (Number.isInteger(index) && index >= 0 && index < columnCount) {
      mapping[field] = index;
    } else {
      delete mapping[field];
      invalid.push({ field, index });
    }
  }
  return { mapping, invalid };
}

/** A column every recipient list must have before it can be a campaign. */
export type RequiredColumn = 'email' | 'name';

/**
 * The required columns the mapping leaves out: the e-mail address, and the name (a full name, or a
 * first or a last name). A list without one of them cannot give a single row an order, so it is
 * refused whole (the window asks for the column; the engine creates nothing).
 */
export function missingColumns(mapping: ColumnMapping): RequiredColumn[] {
  const missing: RequiredColumn[] = [];
  if (mapping.email === undefined) missing.push('email');
  if (mapping.name === undefined && mapping.firstName === undefined && mapping.lastName === undefined) missing.push('name');
  return missing;
}
