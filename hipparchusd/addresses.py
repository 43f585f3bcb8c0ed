"""Peer addresses: the host part of a connection's peer (:func:`host_of`), and the set of
addresses an operator trusts (:class:`AddressSet`), which the per-address limits exempt
(issue 16: nothing is exempt unless configured so)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

import attrs

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def host_of(peer: str) -> str:
    """The address part of a peer as the server logs it (``"10.0.0.5:40112"`` gives
    ``"10.0.0.5"``, ``"::1:40112"`` gives ``"::1"``); a peer without a port (a Unix socket,
    ``"?"``) is its own address."""
    host, colon, port = peer.rpartition(":")
    return host if colon and host and port.isdigit() else peer


def parse_networks(text: str) -> tuple[str, ...]:
    """The comma-separated addresses or networks of ``text`` (``"127.0.0.1, 10.0.0.0/8"``),
    each checked and written canonically; ``""`` gives none.

    Raises:
        ValueError: an item that is not an IP address or network, naming it (cut to 40
            characters).
    """
    items: list[str] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        try:
            items.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ValueError(f"{item[:40]!r} is not an IP address or network") from None
    return tuple(items)


@attrs.frozen
class AddressSet:
    """Addresses and networks (e.g. ``("127.0.0.0/8", "::1/128")``); ``address in s`` tells
    whether a peer address belongs to one of them. A name that is not an IP address belongs
    to none."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, items: Iterable[str]) -> AddressSet:
        """The set of the address or network strings ``items`` (see :func:`parse_networks`).

        Raises:
            ValueError: an item that is not an address or network.
        """
        return cls(tuple(ipaddress.ip_network(item, strict=False) for item in items))

    def __contains__(self, address: object) -> bool:
        if not self.networks or not isinstance(address, str):
            return False
        try:
            ip = ipaddress.ip_address(address.partition("%")[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == net.version and ip in net for net in self.networks)


#: The empty set: nobody is trusted (the default).
NOBODY = AddressSet()
