import { Random } from './random';
import { sceneFor } from './scenes';

/**
 * Delivered content of the demo, by task type or vertical: image annotations in several
 * common shapes, text labels and spans, nested JSON records.
 */
type Payload = Record<string, unknown>;

const sceneUrl = (n: number) => `/media/scenes/${n}.svg`;

const INTENTS = ['refund_request', 'shipping_delay', 'account_access', 'product_question', 'cancellation'];
const OPENERS = ['Hi,', 'Hello team,', 'Good morning,', 'Hey there,', 'Dear support,'];
const PROBLEMS = [
  'my order #{n} has not arrived yet',
  'I was charged twice for order #{n}',
  'I cannot log in since the update',
  'the size guide for item {n} seems wrong',
  'please cancel my subscription {n}',
];
const CLOSERS = ['Thanks.', 'Any update would help.', 'Please advise.', 'Regards, Sam', 'Cheers!'];
const CITIES = ['Lisbon', 'Austin', 'Osaka', 'Nairobi', 'Berlin', 'Toronto'];
const MERCHANTS = ['Green Basket', 'Corner Hardware', 'Blue Fin Sushi', 'Paper & Ink', 'Metro Pharmacy'];
const PRODUCTS = ['oat milk 1L', 'AA batteries x4', 'notebook A5', 'espresso beans 250g', 'hand soap', 'tape 19mm'];
const WEATHER = ['sunny', 'overcast', 'rain', 'fog', 'night', 'dusk'];

const REPLIES = [
  'I am sorry for the trouble: I have refunded the charge and you will see it within 5 days.',
  'Thanks for your patience. Your order left our warehouse today; here is the tracking link.',
  'Please reset your password from the sign-in page and tell me if the link does not arrive.',
  'I have passed this to the right team.',
  'Could you send a photo of the item and your order number?',
];

/**
 * Candidate replies ranked by a rater (1 is best), for preference data. Drawn from their own
 * generator, seeded by the item, so the demo's other content stays as it was.
 */
function rankedReplies(n: number): { rank: number; response: string }[] {
  const own = new Random(n * 104_729 + 3);
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = own.int(0, i);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  };
  // Listed in no particular order: the rank says which is best.
  return shuffle(
    shuffle([...REPLIES])
      .slice(0, 3)
      .map((response, i) => ({ rank: i + 1, response })),
  );
}

function message(random: Random): { text: string; intent: string } {
  const index = random.int(0, PROBLEMS.length - 1);
  const text = `${random.pick(OPENERS)} ${PROBLEMS[index]!.replace('{n}', String(random.int(1000, 99999)))}. ${random.pick(CLOSERS)}`;
  return { text, intent: INTENTS[index]! };
}

export function livePayload(taskType: string, n: number, random: Random): Payload {
  const scene = sceneFor(n);
  switch (taskType) {
    case 'IMAGE_ANNOTATION':
      return {
        image: { url: sceneUrl(n), width: scene.width, height: scene.height },
        annotations: scene.objects.map((o) => ({
          label: o.label,
          bbox: { x: o.x, y: o.y, width: o.width, height: o.height },
          occluded: random.next() < 0.15,
        })),
      };
    case 'IMAGE_SEGMENTATION':
      return {
        image_url: sceneUrl(n),
        objects: scene.objects.map((o) => ({
          label: o.label,
          polygon: [
            [o.x + o.width * 0.5, o.y],
            [o.x + o.width, o.y + o.height * 0.5],
            [o.x + o.width * 0.5, o.y + o.height],
            [o.x, o.y + o.height * 0.5],
          ],
        })),
      };
    case 'IMAGE_CLASSIFICATION':
      return {
        image_url: sceneUrl(n),
        tags: [random.pick(WEATHER), random.pick(['urban', 'suburban', 'highway'])],
        confidence: Math.round((0.6 + random.next() * 0.4) * 1000) / 1000,
      };
    case 'RECEIPT_BOXES':
      return {
        photo_url: sceneUrl(n),
        boxes: scene.objects.map((o) => [o.x, o.y, o.x + o.width, o.y + o.height]),
        labels: scene.objects.map((o) => o.label),
      };
    case 'TEXT_CLASSIFICATION': {
      const { text, intent } = message(random);
      return { text, label: intent, confidence: Math.round((0.5 + random.next() * 0.5) * 1000) / 1000 };
    }
    case 'NAMED_ENTITY_RECOGNITION': {
      const city = random.pick(CITIES);
      const text = `Customer in ${city} reported order #${random.int(1000, 99999)} missing on ${random.int(1, 28)} May.`;
      // Spans found in the text itself (no draws from `random`, so the rest of the demo is unchanged).
      const spans = [
        [city, 'LOCATION'],
        [/#\d+/.exec(text)![0], 'ORDER_ID'],
        [/\d+ May/.exec(text)![0], 'DATE'],
      ].map(([found, label]) => ({ start: text.indexOf(found!), end: text.indexOf(found!) + found!.length, label: label!, text: found! }));
      // Both common forms: {start, end, label} objects, and [start, end, label] triples.
      return n % 2 === 0 ? { text, entities: spans, language: 'en' } : { text, spans: spans.map((e) => [e.start, e.end, e.label]), language: 'en' };
    }
    case 'TEXT_GENERATION': {
      const first = message(random);
      return {
        conversation: [
          { speaker: 'customer', text: first.text },
          { speaker: 'agent', text: 'Thanks for reaching out, I am looking into it now.' },
        ],
        summary: `Customer contacted support about ${first.intent.replace('_', ' ')}.`,
        rating: random.int(1, 5),
        candidates: rankedReplies(n),
      };
    }
    case 'STRUCTURED_EXTRACTION':
    default: {
      const lines = Array.from({ length: random.int(1, 4) }, () => ({
        sku: `SKU-${random.int(10000, 99999)}`,
        description: random.pick(PRODUCTS),
        quantity: random.int(1, 3),
        unit_price: random.int(99, 1999) / 100,
      }));
      const subtotal = Math.round(lines.reduce((sum, l) => sum + l.quantity * l.unit_price * 100, 0)) / 100;
      return {
        receipt: {
          merchant: { name: random.pick(MERCHANTS), address: { city: random.pick(CITIES), country_code: 'PT' } },
          issued_on: `2024-0${random.int(1, 9)}-1${random.int(0, 9)}`,
          currency: 'EUR',
          lines,
          totals: { subtotal, tax: Math.round(subtotal * 23) / 100, verified: random.next() < 0.9 },
        },
      };
    }
  }
}

export function simulatedPayload(verticalSlug: string, n: number, random: Random): Payload {
  switch (verticalSlug) {
    case 'retail-shelf-audits': {
      const scene = sceneFor(100_000 + n);
      return {
        image_url: sceneUrl(100_000 + n),
        store_id: `store-${random.int(10, 99)}`,
        annotations: scene.objects.map((o) => ({ label: o.label, x: o.x, y: o.y, width: o.width, height: o.height })),
      };
    }
    case 'support-dialogues': {
      const first = message(random);
      return {
        dialogue: [
          { role: 'customer', text: first.text },
          { role: 'agent', text: 'I have escalated this and will update you within 24 hours.' },
          { role: 'customer', text: random.pick(CLOSERS) },
        ],
        intent: first.intent,
        resolved: random.next() < 0.7,
        csat: random.int(1, 5),
        reply_ranking: rankedReplies(200_000 + n),
      };
    }
    default:
      return {
        product: {
          title: `${random.pick(['Trail', 'City', 'Studio', 'Pro'])} ${random.pick(['backpack', 'lamp', 'kettle', 'headphones'])}`,
          brand: random.pick(['Northwind', 'Contoso', 'Fabrikam']),
          attributes: { color: random.pick(['black', 'sand', 'teal']), weight_g: random.int(120, 2400) },
          variants: Array.from({ length: random.int(1, 3) }, (_, i) => ({ sku: `V${n}-${i}`, in_stock: random.next() < 0.8 })),
        },
      };
  }
}
