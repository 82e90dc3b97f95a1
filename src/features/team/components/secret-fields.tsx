import { TextField } from '../../../components/ui/field';

/**
 * The vendor key and its JWT as password inputs: never shown, never remembered by the browser
 * (autocomplete off), and cleared by the form after every submit, whatever its outcome.
 */
export function SecretFields({
  keyValue,
  jwtValue,
  onKey,
  onJwt,
}: {
  keyValue: string;
  jwtValue: string;
  onKey: (value: string) => void;
  onJwt: (value: string) => void;
}) {
  return (
    <>
      <TextField
        label="Vendor API key"
        type="password"
        required
        autoComplete="off"
        spellCheck={false}
        value={keyValue}
        onChange={(e) => onKey(e.target.value)}
        hint="<service>_live_sk_ and 32 characters. Sealed on the hub, never shown again."
      />
      <TextField
        label="Dashboard JWT (optional)"
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={jwtValue}
        onChange={(e) => onJwt(e.target.value)}
        hint="For task previews. Leave empty for none."
      />
    </>
  );
}
