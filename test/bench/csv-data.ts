// A deterministic, realistic recipient CSV: the shape an event organiser exports (name, email,
// amount, message), with quoted cells holding commas and quotes, a few amounts with a currency
// sign or cents, and about one row in a thousand with a mistake (so validation finds some).

const FIRST = ['Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Oliver', 'Sophia', 'Elijah', 'Isabella', 'James', 'Mia', 'William', 'Amelia', 'Benjamin', 'Harper', 'Lucas', 'Evelyn', 'Henry', 'Abigail', 'Alexander', 'Jürgen', 'Zoë', 'Seo-yeon', 'Chloé', 'Mateo'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', "O'Brien", 'Müller', 'Kim', 'Dubois', 'Nguyen'];
const DOMAINS = ['example.com', 'example.org', 'mail.example.net', 'events.example.co.uk', 'corp.example.io'];
const MESSAGES = [
  'Thank you for coming!',
  'Thanks for speaking at the conference, see you next year',
  '',
  'With our thanks, from the whole team',
  'Enjoy, and thank you for volunteering',
  '',
  'Congratulations on the award',
];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function quote(cell: string): string {
  return /[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** `rows` recipients plus a header line, UTF-8, CRLF line endings (as Excel writes them). */
export function recipientsCsv(rows: number, seed = 42): Uint8Array {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const lines: string[] = ['Name,Email,Amount,Message'];
  for (let i = 0; i < rows; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    let name = `${first} ${last}`;
    if (i % 50 === 7) name = `${last}, ${first}`;
    let email = `${first}.${last}.${i}@${pick(DOMAINS)}`.toLowerCase().replace(/[^a-z0-9.@-]/g, '');
    if (i % 997 === 13) email = email.replace('@', ' at ');
    const dollars = 5 + Math.floor(random() * 96);
    const style = i % 20;
    const amount = style === 0 ? `$${dollars}` : style === 1 ? `${dollars}.50` : style === 2 ? '' : String(dollars);
    let message = pick(MESSAGES);
    if (i % 100 === 3) message = `Thanks, ${first} — you made the "big day" happen`;
    lines.push([quote(name), quote(email), quote(amount), quote(message)].join(','));
  }
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
}
