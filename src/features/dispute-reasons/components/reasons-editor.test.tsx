import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scopeOf } from '../../../data';
import { testConnection } from '../../../test/connection';
import { ConsoleDb, readSetting, setDatabaseForTests } from '../../../domain/store';
import { parseReasonList } from '../model';
import { testQueryClient } from '../../../test/query-client';
import { DisputeReasonsPage } from './reasons-editor';

const BASE = 'http://127.0.0.1:8787';
let n = 0;
let db: ConsoleDb;
let org: string;
const connection = () => testConnection({ baseUrl: BASE, verified: { org_id: org, key_id: 'k1', key_name: 'demo' } });
const stored = () => readSetting(scopeOf(BASE, org), 'disputeReasons', parseReasonList);
const codesShown = () =>
  within(screen.getByRole('list', { name: 'Reason codes' }))
    .getAllByRole('listitem')
    .map((li) => li.querySelector('code')!.textContent);

beforeEach(() => {
  // A fresh organization and database per test (each render has a query client of its own).
  org = `org_${++n}`;
  db = new ConsoleDb(`reasons-editor-${n}`);
  setDatabaseForTests(db);
});
afterEach(async () => {
  setDatabaseForTests(null);
  await db.delete();
});

// Each test types into a whole editor; on a busy shared machine that can take seconds.
describe('DisputeReasonsPage', { timeout: 20_000 }, () => {
  it('lists the defaults, and renames, reorders, adds and removes, each written to the store', async () => {
    const user = userEvent.setup();
    render(<DisputeReasonsPage connection={connection()} />, testQueryClient());
    await screen.findByRole('list', { name: 'Reason codes' });
    expect(codesShown().slice(0, 3)).toEqual(['wrong_label', 'missing_object', 'box_too_loose']);
    // Every control has a name.
    for (const control of [...screen.getAllByRole('button'), ...screen.getAllByRole('textbox')]) expect(control).toHaveAccessibleName();

    const label = screen.getByRole('textbox', { name: 'Label of duplicate' });
    await user.clear(label);
    await user.type(label, 'Seen twice{Enter}');
    await screen.findByText('Renamed duplicate to “Seen twice”.');
    await user.click(screen.getByRole('button', { name: 'Move duplicate up' }));
    await screen.findByText('Moved duplicate up.');
    expect(codesShown().slice(0, 4)).toEqual(['wrong_label', 'missing_object', 'duplicate', 'box_too_loose']);

    await user.type(screen.getByRole('textbox', { name: 'New reason label' }), 'Wrong language');
    expect(screen.getByRole('textbox', { name: 'New reason code (snake_case)' })).toHaveValue('wrong_language');
    await user.click(screen.getByRole('button', { name: 'Add reason' }));
    await screen.findByText('Added wrong_language.');
    // Remove is a quiet icon button (named for its code), not a row of solid red "Remove" buttons.
    const remove = screen.getByRole('button', { name: 'Remove wrong_label' });
    expect(remove).not.toHaveTextContent('Remove');
    expect(remove.className).not.toMatch(/bg-dispute/);
    await user.click(remove);
    await screen.findByText('Removed wrong_label.');

    await waitFor(async () => expect((await stored())?.map((r) => r.code)).toEqual(codesShown()));
    const list = (await stored())!;
    expect(list[0]).toEqual({ code: 'missing_object', label: 'Missing object' });
    expect(list.find((r) => r.code === 'duplicate')).toEqual({ code: 'duplicate', label: 'Seen twice' });
    expect(list.at(-1)).toEqual({ code: 'wrong_language', label: 'Wrong language' });
  });

  it('says why a new code or an empty label is refused, and stores nothing then', async () => {
    const user = userEvent.setup();
    render(<DisputeReasonsPage connection={connection()} />, testQueryClient());
    await screen.findByRole('list', { name: 'Reason codes' });
    await user.type(screen.getByRole('textbox', { name: 'New reason label' }), 'Duplicate');
    await user.click(screen.getByRole('button', { name: 'Add reason' }));
    expect(screen.getByText('“duplicate” is already in the list.')).toBeVisible();
    const code = screen.getByRole('textbox', { name: 'New reason code (snake_case)' });
    await user.clear(code);
    await user.type(code, 'Bad Code');
    expect(code).toHaveAccessibleDescription('A code is lower-case letters, digits and _ (snake_case), starting with a letter.');
    expect(code).toBeInvalid();

    const label = screen.getByRole('textbox', { name: 'Label of unreadable' });
    await user.clear(label);
    await user.keyboard('{Enter}');
    expect(label).toHaveAccessibleDescription('Enter a label.');
    expect(label).toBeInvalid();
    expect(await stored()).toBeNull();
  });
});
