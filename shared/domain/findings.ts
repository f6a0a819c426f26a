// What checking an order answer against its request can find (docs/architecture.md, "Sending",
// step 7): a difference from what the row asked ('mismatch': the campaign pauses at once), or a
// value of the answer we could not read ('unreadable': kept as received and shown; nothing pauses
// for it). Stored with the row, shown by the app, the CLI and the report.
import { z } from 'zod';

export const FINDING_FIELDS = ['key', 'product', 'amount', 'currency', 'recipient', 'record'] as const;

export const findingSchema = z.object({
  kind: z.enum(['mismatch', 'unreadable']),
  field: z.enum(FINDING_FIELDS),
  /** What the row asked, as text ("USD 11.50"); absent for an unreadable value. */
  asked: z.string().optional(),
  /** What the service stated, as received ("USD 5.00", "nothing"). */
  stated: z.string(),
  /** One sentence naming the difference: "the service issued USD 5.00 for a USD 11.50 gift". */
  message: z.string(),
});
export type Finding = z.infer<typeof findingSchema>;
