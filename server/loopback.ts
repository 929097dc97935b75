/**
 * Whether a host name, as `new URL(…).hostname` gives it (IPv6 in brackets), names this machine's
 * loopback interface: `localhost` and its subdomains, 127.0.0.0/8, `[::1]`. Used to accept requests
 * (Host) and browser pages (Origin) that can only come from this machine.
 */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}
