"""Which hosts the git cache may fetch an agent's repository from: never one the API alone names.

With no clone of the agent's repository shared, the cache fetches it from the URL the API gives, with the
person's git (and so their credential helpers). The API's answer is not the person's word: a host is used
only when the person's own clones use it or the setting CURSOR_MCP_GIT_HOSTS lists it (github.com by
default). An address in a private, loopback, link-local (169.254.169.254: cloud metadata), shared or
reserved range is refused even then, unless the setting lists that very address (a test's stand-in
remote on loopback): in every spelling git would dial, `127.1` and `2130706433` included. A host name is not
resolved here: a name is trusted because the person uses or lists it, which is what the rule says.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.guards.net import is_public_address


def address_of(host: str) -> str | None:
    """The IP address `host` spells (dotted, IPv6, or the short and decimal IPv4 forms a resolver accepts),
    or None for a name."""
    bare = host.strip("[]")
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        pass
    if bare and all(char in "0123456789abcdefx." for char in bare.lower()) and any(c.isdigit() for c in bare):
        try:
            return socket.inet_ntoa(socket.inet_aton(bare))  # 127.1, 0x7f.1, 2130706433: what git would dial
        except OSError:
            return None
    return None


def _names(hosts: Iterable[str]) -> set[str]:
    return {name.strip().lower().strip("[]") for name in hosts if name.strip()}


def host_problem(host: str, listed_hosts: Iterable[str], used_hosts: Iterable[str] = ()) -> str | None:
    """Why the cache may not fetch from `host`, or None; `listed_hosts` are the setting's, `used_hosts` those
    of the person's clones (a private address passes only when the setting lists it)."""
    listed, used = _names(listed_hosts), _names(used_hosts)
    bare = host.strip().lower().strip("[]")
    address = address_of(bare)
    if address is not None and address not in listed and not is_public_address(address):
        return f"{host} is a private, loopback or link-local address"
    if bare not in listed | used and (address is None or address not in listed | used):
        shown = ", ".join(sorted(listed)) or "none"
        return f"{host} is neither listed in CURSOR_MCP_GIT_HOSTS ({shown}) nor a host your own clones use"
    return None


def refuse_host(host: str, listed_hosts: Iterable[str], used_hosts: Iterable[str] = ()) -> None:
    """Refuse a fetch from `host` for the cache, before git runs.

    Raises:
        ToolFailure: CONFIGURATION naming the host and the setting to change.
    """
    problem = host_problem(host, listed_hosts, used_hosts)
    if problem is None:
        return
    raise ToolFailure(
        Code.CONFIGURATION,
        f"The agent's repository is on {ascii(host)}, which git will not fetch from for the cache: {problem}. Share a "
        "clone of the repository with the client (its roots, or start the server in it), or add the host to "
        "CURSOR_MCP_GIT_HOSTS if you trust it. Nothing was fetched.",
    )
