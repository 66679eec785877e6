"""Which base URLs an endpoint may have (server-side request forgery guard).

Rules: http or https; a host, no credentials in the URL; every address the host resolves to must be
public (global unicast). Refused: link-local (169.254/16, fe80::/10: cloud metadata lives there),
private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), unspecified, multicast, reserved,
and IPv4-mapped IPv6 forms of those. Loopback (127/8, ::1) only when the admin ticked "local server".
IPv6 forms that carry an IPv4 address to a relay (6to4 2002::/16, Teredo 2001::/32, NAT64
64:ff9b::/96) are refused when the address they carry is refused, loopback included: a relay or
gateway may deliver `http://[2002:7f00:1::]/` to 127.0.0.1.

Hosts are parsed the way C resolvers parse them, so `http://2130706433/`, `http://127.1/`,
`http://0x7f.1/` and `http://017700000001/` are seen as 127.0.0.1 (socket.inet_aton accepts exactly
those shortened/numeric forms); DNS names are resolved and every address checked.

Limits, said plainly: the check runs when an endpoint is saved and when a worker builds its client
(evaluation/llm/client.py re-checks every few minutes), not per request, so a DNS name that later
rebinds to a private address is caught at the next check, not instantly. Redirects are never followed
by the client, so a public URL cannot bounce a request to loopback.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.utils.translation import gettext as _


class BaseUrlRefused(ValueError):
    pass


def _literal_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        # inet_aton accepts the historical forms: 2130706433, 127.1, 0x7f.0.0.1, 0177.0.0.1
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def _resolve(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise BaseUrlRefused(
            _("The host “%(host)s” does not resolve (%(error)s).") % {"host": host, "error": exc}
        ) from exc
    return [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def _carried_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses a 6to4, Teredo (server and client) or NAT64 address carries."""
    if address.sixtofour is not None:
        return [address.sixtofour]
    if address.teredo is not None:
        return list(address.teredo)
    if address in _NAT64:
        return [ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)]
    return []


def address_problem(address: ipaddress.IPv4Address | ipaddress.IPv6Address, *, allow_loopback: bool) -> str | None:
    """Why this address may not be called, or None."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if isinstance(address, ipaddress.IPv6Address):
        for carried in _carried_ipv4(address):
            problem = _("a loopback address") if carried.is_loopback else address_problem(carried, allow_loopback=False)
            if problem:
                return _("an IPv6 form of %(address)s, %(problem)s") % {"address": carried, "problem": problem}
    if address.is_loopback:
        return None if allow_loopback else _("a loopback address (tick “local server” for a server on this machine)")
    if address.is_unspecified:
        return _("an unspecified address")
    if address.is_link_local:
        return _("a link-local address (cloud metadata lives there)")
    if address.is_multicast:
        return _("a multicast address")
    if address.is_private or address.is_reserved or not address.is_global:
        return _("a private or reserved address")
    return None


def validate_base_url(url: str, *, is_local: bool, resolve: bool = True) -> str:
    """The URL, normalised (no trailing slash), or BaseUrlRefused with a reason a person can act on."""
    url = (url or "").strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BaseUrlRefused(_("“%(url)s” is not a valid URL (%(error)s).") % {"url": url, "error": exc}) from exc
    if parts.scheme not in ("http", "https"):
        raise BaseUrlRefused(
            _("Only http and https URLs are allowed, not “%(scheme)s”.") % {"scheme": parts.scheme or url}
        )
    host = parts.hostname
    if not host:
        raise BaseUrlRefused(_("The URL has no host."))
    if parts.username or parts.password:
        raise BaseUrlRefused(_("Put the API key in an environment variable, not in the URL."))
    port = port or (443 if parts.scheme == "https" else 80)
    literal = _literal_address(host)
    if literal is not None:
        addresses = [literal]
    elif host.lower() == "localhost" or host.lower().endswith(".localhost"):
        addresses = [ipaddress.ip_address("127.0.0.1")]
    elif resolve:
        addresses = _resolve(host, port)
    else:
        addresses = []
    for address in addresses:
        problem = address_problem(address, allow_loopback=is_local)
        if problem:
            raise BaseUrlRefused(_("“%(host)s” is %(problem)s: refused.") % {"host": host, "problem": problem})
    if is_local and addresses and not all(_loopback(a) for a in addresses):
        raise BaseUrlRefused(_("“%(host)s” is not on this machine; untick “local server”.") % {"host": host})
    return url.rstrip("/")


def _loopback(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback
