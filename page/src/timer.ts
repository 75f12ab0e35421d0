// The turn timer: the seconds left before a deadline (Unix seconds), as "m:ss".

export function secondsLeft(deadline: number | null, nowMs: number): number | null {
  if (deadline === null) return null;
  return Math.max(0, Math.ceil(deadline - nowMs / 1000));
}

export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}
