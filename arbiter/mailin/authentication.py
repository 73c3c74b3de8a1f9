"""``Authentication-Results`` (RFC 8601) added by the receiving MTA: a failing DMARC
or DKIM for the From domain refuses the mail.

Only headers whose authserv-id is ``MAIL_AUTHSERV_ID`` are read when it is set; the
operator's MTA must then remove any such header that arrives from outside (RFC 8601,
section 5), so that a sender cannot forge a passing one. A forged *failing* header can
only make its own mail refused. Parsed with ``authres``.
"""

from __future__ import annotations

from email.message import EmailMessage

import authres

from arbiter import settings

FAILING = {"fail", "permerror"}


def failure(msg: EmailMessage, sender: str) -> str | None:
    """Return why ``msg`` fails authentication for ``sender``'s domain (a sentence),
    or None. Refused: a DMARC fail for the domain, or a DKIM fail for it with no
    passing DKIM signature of it beside (a list may break one of two signatures)."""
    domain = sender.rpartition("@")[2].lower()
    verdicts = {"dmarc": set(), "dkim": set()}
    for result in _results(msg):
        method = str(result.method).lower()
        domains = {
            str(p.value).lower()
            for p in result.properties
            if (p.type, p.name) in (("header", "from"), ("header", "d"))
        }
        if method in verdicts and (not domains or domain in domains):
            verdicts[method].add(str(result.result).lower())
    if verdicts["dmarc"] & FAILING:
        return f"DMARC fails for {domain}"
    if verdicts["dkim"] & FAILING and "pass" not in verdicts["dkim"]:
        return f"the DKIM signature of {domain} does not verify"
    return None


def _results(msg: EmailMessage) -> list:
    """Return the results of the trusted ``Authentication-Results`` headers."""
    trusted = settings.current().mail.authserv_id.lower()
    results = []
    for value in msg.get_all("Authentication-Results") or []:
        try:
            parsed = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {value}")
        except Exception:  # noqa: BLE001 - authres raises several classes; unreadable: skip
            continue
        if not trusted or str(parsed.authserv_id).lower() == trusted:
            results.extend(parsed.results)
    return results
