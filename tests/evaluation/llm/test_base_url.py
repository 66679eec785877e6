"""The base-URL guard: the issue's SSRF list, exactly, and what stays allowed."""

from __future__ import annotations

import pytest

from evaluation.llm.base_url import BaseUrlRefused, validate_base_url


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://169.254.169.254/", "“169.254.169.254” is a link-local address (cloud metadata lives there): refused."),
        (
            "http://[::1]:6379/",
            "“::1” is a loopback address (tick “local server” for a server on this machine): refused.",
        ),
        (
            "http://2130706433/",
            "“2130706433” is a loopback address (tick “local server” for a server on this machine): refused.",
        ),
        ("http://127.1/", "“127.1” is a loopback address (tick “local server” for a server on this machine): refused."),
        (
            "http://0x7f.0.0.1/",
            "“0x7f.0.0.1” is a loopback address (tick “local server” for a server on this machine): refused.",
        ),
        (
            "http://localhost:8080/v1",
            "“localhost” is a loopback address (tick “local server” for a server on this machine): refused.",
        ),
        ("file:///etc/passwd", "Only http and https URLs are allowed, not “file”."),
        ("gopher://example.com/", "Only http and https URLs are allowed, not “gopher”."),
        ("http://10.0.0.5/v1", "“10.0.0.5” is a private or reserved address: refused."),
        ("http://172.16.3.4/v1", "“172.16.3.4” is a private or reserved address: refused."),
        ("http://192.168.1.10/v1", "“192.168.1.10” is a private or reserved address: refused."),
        ("http://100.64.0.1/v1", "“100.64.0.1” is a private or reserved address: refused."),
        ("http://[fd00::1]/v1", "“fd00::1” is a private or reserved address: refused."),
        ("http://[fe80::1]/v1", "“fe80::1” is a link-local address (cloud metadata lives there): refused."),
        (
            "http://[::ffff:169.254.169.254]/",
            "“::ffff:169.254.169.254” is a link-local address (cloud metadata lives there): refused.",
        ),
        ("http://0.0.0.0:8000/", "“0.0.0.0” is an unspecified address: refused."),
        ("http://224.0.0.1/", "“224.0.0.1” is a multicast address: refused."),
        ("http://user:secret@api.example.com/", "Put the API key in an environment variable, not in the URL."),
        ("http:///v1", "The URL has no host."),
    ],
)
def test_refused_base_urls(url, reason):
    with pytest.raises(BaseUrlRefused) as caught:
        validate_base_url(url, is_local=False)

    assert str(caught.value) == reason


def test_metadata_stays_refused_even_for_a_local_server():
    with pytest.raises(BaseUrlRefused) as caught:
        validate_base_url("http://169.254.169.254/", is_local=True)

    assert "link-local" in str(caught.value)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8081/v1", "http://[::1]:8081/v1", "http://127.1:8081/v1/"])
def test_loopback_is_allowed_only_with_the_local_tick(url):
    assert validate_base_url(url, is_local=True) == url.rstrip("/")


def test_a_local_server_must_be_on_this_machine():
    with pytest.raises(BaseUrlRefused) as caught:
        validate_base_url("http://8.8.8.8/v1", is_local=True)

    assert str(caught.value) == "“8.8.8.8” is not on this machine; untick “local server”."


def test_a_public_address_is_allowed():
    assert validate_base_url("https://8.8.8.8/v1/", is_local=False) == "https://8.8.8.8/v1"


def test_a_name_resolving_to_loopback_is_refused():
    # "localhost.localdomain"-style names go through the resolver; every address must be public.
    with pytest.raises(BaseUrlRefused):
        validate_base_url("http://ip6-localhost/", is_local=False)


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        ("2002:7f00:1::", "an IPv6 form of 127.0.0.1, a loopback address"),  # 6to4
        ("2002:a9fe:a9fe::", "an IPv6 form of 169.254.169.254, a link-local address (cloud metadata lives there)"),
        ("2002:a00:1::", "an IPv6 form of 10.0.0.1, a private or reserved address"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "an IPv6 form of 127.0.0.1, a loopback address"),  # Teredo client
        ("2001:0:7f00:1::", "an IPv6 form of 127.0.0.1, a loopback address"),  # Teredo server
        ("64:ff9b::7f00:1", "an IPv6 form of 127.0.0.1, a loopback address"),  # NAT64
        ("64:ff9b::a9fe:a9fe", "an IPv6 form of 169.254.169.254, a link-local address (cloud metadata lives there)"),
    ],
)
@pytest.mark.parametrize("is_local", [False, True])
def test_ipv6_forms_carrying_a_refused_ipv4_are_refused_even_for_a_local_server(host, reason, is_local):
    with pytest.raises(BaseUrlRefused) as caught:
        validate_base_url(f"http://[{host}]/v1", is_local=is_local)

    assert str(caught.value) == f"“{host}” is {reason}: refused."


def test_a_6to4_form_of_a_public_ipv4_is_allowed():
    assert validate_base_url("http://[2002:808:808::]/v1", is_local=False) == "http://[2002:808:808::]/v1"
