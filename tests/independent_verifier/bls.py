"""The BLS signature of a drand round (docs/AUDIT.md section 11.6, scheme `bls-unchained-g1-rfc9380`): the
signature a point of G1 (48 bytes compressed), the network's public key a point of G2 (96 bytes compressed), the
message SHA-256 of the round as an unsigned 64-bit big-endian integer, hashed to G1 as RFC 9380 says with the
domain `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`. It verifies when e(signature, g2) = e(H(message), key).

The curve arithmetic comes from the `py-ecc` package (pure Python, the Ethereum Foundation's): its hash to G1
(RFC 9380), point decompression and pairing. It is optional: the verifier runs without it, and then says that
the signatures were not checked and why. Before its answers are trusted, `selfcheck` runs it on known answers:
RFC 9380's first hash-to-G1 vector and drand's published quicknet round 123 (AUDIT.md section 11.6), which must
verify, and fail for round 124 or a changed byte.
"""

from __future__ import annotations

import hashlib
import struct
from importlib import metadata

from base import sha256

DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
SIGNATURE_BYTES = 48  # a compressed point of G1
PUBLIC_KEY_BYTES = 96  # a compressed point of G2
INSTALL = "pip install 'py-ecc>=8'"

# drand's quicknet, round 123, as AUDIT.md section 11.6 prints them.
QUICKNET_PUBLIC_KEY = bytes.fromhex(
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921"
    "cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
)
QUICKNET_ROUND = 123
QUICKNET_SIGNATURE = bytes.fromhex(
    "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92"
)

# RFC 9380, appendix J.9.1 (suite BLS12381G1_XMD:SHA-256_SSWU_RO_), the empty message: the point it hashes to.
RFC9380_DST = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_"
RFC9380_EMPTY = (
    0x052926ADD2207B76CA4FA57A8734416C8DC95E24501772C814278700EED6D1E4E8CF62D9C09DB0FAC349612B759E79A1,
    0x08BA738453BFED09CB546DBB0783DBB3A5F1F566ED67BB6BE0E8C67E2E81A4CC68EE29813BB7994998F3EAE0C9C6A265,
)


def message(round_number: int) -> bytes:
    """What a round's signature signs: SHA-256 of the round, u64 big-endian."""
    return sha256(struct.pack(">Q", round_number))


class Bls:
    """py_ecc's BLS12-381, loaded; `verify` says what is wrong with a signature, or None when it verifies."""

    def __init__(self, lib: dict, version: str) -> None:
        self._lib = lib
        self.version = version

    def _g1(self, data: bytes):
        """A compressed point of G1 in its prime-order subgroup, not the point at infinity."""
        lib = self._lib
        if len(data) != SIGNATURE_BYTES:
            raise ValueError(f"{len(data)} bytes, not {SIGNATURE_BYTES}")
        point = lib["decompress_G1"](int.from_bytes(data, "big"))
        if lib["is_inf"](point):
            raise ValueError("the point at infinity")
        if not lib["is_inf"](lib["multiply"](point, lib["curve_order"])):
            raise ValueError("not in the prime-order subgroup")
        return point

    def _g2(self, data: bytes):
        """A compressed point of G2 (first 48 bytes the imaginary part, flags in its top bits), in the subgroup."""
        lib = self._lib
        if len(data) != PUBLIC_KEY_BYTES:
            raise ValueError(f"{len(data)} bytes, not {PUBLIC_KEY_BYTES}")
        point = lib["decompress_G2"]((int.from_bytes(data[:48], "big"), int.from_bytes(data[48:], "big")))
        if lib["is_inf"](point):
            raise ValueError("the point at infinity")
        if not lib["is_inf"](lib["multiply"](point, lib["curve_order"])):
            raise ValueError("not in the prime-order subgroup")
        return point

    def hash_to_g1(self, msg: bytes, dst: bytes = DST) -> tuple[int, int]:
        """RFC 9380 hash to G1 (expand_message_xmd with SHA-256, SSWU, random oracle), as affine (x, y)."""
        lib = self._lib
        x, y = lib["normalize"](lib["hash_to_G1"](msg, dst, hashlib.sha256))
        return x.n, y.n

    def verify(self, public_key: bytes, round_number: int, signature: bytes) -> str | None:
        lib = self._lib
        try:
            sig = self._g1(signature)
        except Exception as e:  # whatever the library raises on a malformed point
            return f"the signature is not a point of G1 ({e})"
        try:
            key = self._g2(public_key)
        except Exception as e:  # whatever the library raises on a malformed point
            return f"the network's public key is not a point of G2 ({e})"
        h = lib["hash_to_G1"](message(round_number), DST, hashlib.sha256)
        # e(sig, g2) = e(H(m), key)  <=>  e(-sig, g2) * e(H(m), key) = 1 after the final exponentiation
        product = lib["pairing"](lib["G2"], lib["neg"](sig), final_exponentiate=False) * lib["pairing"](
            key, h, final_exponentiate=False
        )
        if lib["final_exponentiate"](product) != lib["FQ12"].one():
            return f"the signature does not verify for round {round_number} against the network's public key"
        return None


def load() -> tuple[Bls | None, str | None]:
    """(the BLS check, None), or (None, why it cannot be had)."""
    try:
        import py_ecc  # noqa: F401
    except ImportError:
        return None, f"the Python package py-ecc is not installed ({INSTALL})"
    except Exception as e:  # a broken install is said, not a crash
        return None, f"the Python package py-ecc does not load ({e!r})"
    try:
        got = metadata.version("py-ecc")
    except Exception:
        got = "(version unknown)"
    try:
        from py_ecc.bls.hash_to_curve import hash_to_G1
        from py_ecc.bls.point_compression import decompress_G1, decompress_G2
        from py_ecc.fields import optimized_bls12_381_FQ12 as FQ12
        from py_ecc.optimized_bls12_381 import (
            G2,
            curve_order,
            final_exponentiate,
            is_inf,
            multiply,
            neg,
            normalize,
            pairing,
        )
    except ImportError as e:
        return None, f"py-ecc {got} has no hash to G1 or pairing where expected ({e}); {INSTALL}"
    except Exception as e:
        return None, f"py-ecc {got} does not load ({e!r})"
    lib = {
        "hash_to_G1": hash_to_G1, "decompress_G1": decompress_G1, "decompress_G2": decompress_G2, "FQ12": FQ12,
        "G2": G2, "curve_order": curve_order, "final_exponentiate": final_exponentiate, "is_inf": is_inf,
        "multiply": multiply, "neg": neg, "normalize": normalize, "pairing": pairing,
    }
    return Bls(lib, got), None


def selfcheck(bls: Bls) -> list[tuple[str, bool, str, str]]:
    """Known answers, each (name, ok, expected, got): the library must pass them all to be trusted."""
    results = []

    def check(name: str, expected: str, run) -> None:
        try:
            got = run()
        except Exception as e:  # a library that crashes on a known answer is not trusted
            got = f"raised {e!r}"
        results.append((name, got == expected, expected, str(got)))

    def rfc_point() -> str:
        x, y = bls.hash_to_g1(b"", RFC9380_DST)
        return f"{x:096x} {y:096x}"

    check("bls hash to G1, RFC 9380 J.9.1 empty message", f"{RFC9380_EMPTY[0]:096x} {RFC9380_EMPTY[1]:096x}",
          rfc_point)
    check(f"bls drand quicknet round {QUICKNET_ROUND} verifies", "verifies",
          lambda: bls.verify(QUICKNET_PUBLIC_KEY, QUICKNET_ROUND, QUICKNET_SIGNATURE) or "verifies")
    check(f"bls drand quicknet round {QUICKNET_ROUND}'s signature fails for round {QUICKNET_ROUND + 1}", "fails",
          lambda: "fails" if bls.verify(QUICKNET_PUBLIC_KEY, QUICKNET_ROUND + 1, QUICKNET_SIGNATURE) else "verifies")
    for at in (0, 20, 47):
        changed = bytearray(QUICKNET_SIGNATURE)
        changed[at] ^= 0x01
        check(f"bls drand quicknet round {QUICKNET_ROUND} with signature byte {at} changed fails", "fails",
              lambda c=bytes(changed): "fails" if bls.verify(QUICKNET_PUBLIC_KEY, QUICKNET_ROUND, c) else "verifies")
    changed_key = bytearray(QUICKNET_PUBLIC_KEY)
    changed_key[50] ^= 0x01
    check(f"bls drand quicknet round {QUICKNET_ROUND} with a public key byte changed fails", "fails",
          lambda: "fails" if bls.verify(bytes(changed_key), QUICKNET_ROUND, QUICKNET_SIGNATURE) else "verifies")
    return results
