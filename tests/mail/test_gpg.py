"""The GnuPG keyring adapter, against the real gpg (fixtures in conftest.py)."""

from __future__ import annotations

import email
import email.policy
import re
import subprocess
from pathlib import Path

import gnupg
import pytest

from moderator.mail.errors import GpgError, MailError
from moderator.mail.gpg import normalize_fingerprint
from moderator.mail.pgp_packets import signature_hash
from moderator.mail.signatures import SignatureStatus
from moderator.testing.gnupg import keyring as open_keyring

CORPUS = Path("/work/shared/mail-corpus")
ORDERS = b"move Rd01 to 133\r\nsplit Rd02 Ogre Ogre\r\n"


# -- keys ----------------------------------------------------------------------


def test_generated_keys_are_fingerprints_with_secret_keys(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    assert len(mod.fingerprint) == 40
    assert mod.fingerprint == normalize_fingerprint(mod.fingerprint.lower())
    assert mod.keyring.has_secret_key(mod.fingerprint)
    assert not ann.keyring.has_secret_key(mod.fingerprint)


def test_keys_are_ed25519_with_a_cv25519_subkey_when_gpg_has_them(gpg_world):
    keys = gnupg.GPG(gnupghome=str(gpg_world.moderator.keyring.home)).list_keys()
    (key,) = [k for k in keys if k["fingerprint"] == gpg_world.moderator.fingerprint]
    assert key["algo"] in ("22", "1")  # EdDSA, or the RSA fallback
    if key["algo"] == "22":
        (subkey,) = key["subkey_info"].values()
        assert subkey["curve"] == "cv25519"


def test_export_then_import_gives_the_same_fingerprint(gpg_world, gpg_home):
    armored = gpg_world.ann.keyring.export_public(gpg_world.ann.fingerprint)
    assert "BEGIN PGP PUBLIC KEY BLOCK" in armored
    assert "PRIVATE" not in armored
    assert open_keyring(gpg_home).import_key(armored) == (gpg_world.ann.fingerprint,)


def test_import_of_garbage_and_export_of_a_missing_key_fail(gpg_world, gpg_home):
    keyring = open_keyring(gpg_home)
    with pytest.raises(GpgError, match="no OpenPGP key"):
        keyring.import_key("hello, I am not a key")
    with pytest.raises(GpgError, match="import it first") as caught:
        keyring.export_public(gpg_world.ann.fingerprint)
    assert isinstance(caught.value, MailError)


def test_a_fingerprint_must_be_complete():
    assert normalize_fingerprint("0x" + "ab" * 20) == "AB" * 20
    assert normalize_fingerprint("ABCD " * 10) == "ABCD" * 10
    with pytest.raises(GpgError, match="not a full key fingerprint"):
        normalize_fingerprint("ann@example.org")


# -- detached signatures -------------------------------------------------------


def test_detached_signature_verifies_with_signer_fingerprint(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    signature = mod.keyring.sign_detached(ORDERS, mod.fingerprint)
    assert signature.startswith(b"-----BEGIN PGP SIGNATURE-----")
    result = ann.keyring.verify_detached(ORDERS, signature)
    assert result.valid
    assert result.reason is SignatureStatus.GOOD
    assert result.fingerprint == mod.fingerprint
    assert result.signed_data == ORDERS
    assert result.signed_at is not None


def test_signature_hash_is_read_from_the_packet(gpg_world):
    mod = gpg_world.moderator
    assert signature_hash(mod.keyring.sign_detached(ORDERS, mod.fingerprint)) == "sha256"
    with pytest.raises(GpgError):
        signature_hash(b"-----BEGIN PGP SIGNATURE-----\n\nbm90IGEgcGFja2V0\n-----END PGP")


def test_tampered_data_fails(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    signature = mod.keyring.sign_detached(ORDERS, mod.fingerprint)
    result = ann.keyring.verify_detached(ORDERS.replace(b"133", b"134"), signature)
    assert not result.valid
    assert result.reason is SignatureStatus.BAD
    assert result.fingerprint is None
    assert result.signed_data == b""


def test_signature_by_an_unknown_key_says_unknown_key(gpg_world, stranger):
    signature = stranger.keyring.sign_detached(ORDERS, stranger.fingerprint)
    result = gpg_world.moderator.keyring.verify_detached(ORDERS, signature)
    assert not result.valid
    assert result.reason is SignatureStatus.UNKNOWN_KEY
    assert result.reason == "unknown key"
    assert result.issuer is not None
    assert stranger.fingerprint.endswith(result.issuer)


def test_signature_by_another_known_player_is_valid_but_names_him(gpg_world):
    """Keyring says who signed; the caller compares with the pinned fingerprint."""
    ann, bob, mod = gpg_world.ann, gpg_world.bob, gpg_world.moderator
    signature = bob.keyring.sign_detached(ORDERS, bob.fingerprint)
    result = mod.keyring.verify_detached(ORDERS, signature)
    assert result.valid
    assert result.fingerprint == bob.fingerprint != ann.fingerprint


def test_garbage_signature_is_reported_not_raised(gpg_world):
    result = gpg_world.moderator.keyring.verify_detached(ORDERS, b"not a signature")
    assert not result.valid
    assert result.reason in (SignatureStatus.MALFORMED, SignatureStatus.NOT_SIGNED)


def test_signing_without_the_secret_key_tells_what_to_do(gpg_world):
    with pytest.raises(GpgError, match="no secret key .*check-config") as caught:
        gpg_world.ann.keyring.sign_detached(ORDERS, gpg_world.moderator.fingerprint)
    assert caught.value.operation == "sign"


def test_passphrase_protected_key(gpg_home):
    keyring = open_keyring(gpg_home)
    fpr = keyring.generate_key("Guarded", "guarded@titan.example", passphrase="s3cret words")
    keyring.stop_agent()  # forget any cached passphrase
    with pytest.raises(GpgError, match="passphrase"):
        open_keyring(gpg_home, passphrase="wrong").sign_detached(ORDERS, fpr)
    keyring.stop_agent()
    signature = open_keyring(gpg_home, passphrase="s3cret words").sign_detached(ORDERS, fpr)
    assert keyring.verify_detached(ORDERS, signature).valid


# -- clearsigned text -----------------------------------------------------------


def test_clearsigned_text_verifies_and_returns_the_signed_text(gpg_world):
    ann, mod = gpg_world.ann, gpg_world.moderator
    text = "move Rd01 to 133\n- a dashed line\n-----\nFrom here on\n"
    block = ann.keyring.clearsign(text, ann.fingerprint)
    assert b"\n- - a dashed line" in block  # dash-escaped
    result = mod.keyring.verify_clearsigned(block)
    assert result.valid
    assert result.fingerprint == ann.fingerprint
    assert result.signed_text.replace("\r\n", "\n") == text


def test_edited_clearsigned_text_fails_and_yields_no_text(gpg_world):
    ann, mod = gpg_world.ann, gpg_world.moderator
    block = ann.keyring.clearsign("move Rd01 to 133\n", ann.fingerprint)
    result = mod.keyring.verify_clearsigned(block.replace(b"133", b"134"))
    assert not result.valid
    assert result.reason is SignatureStatus.BAD
    assert result.signed_data == b""  # gpg prints the forged text; we do not pass it on


def test_text_around_a_clearsigned_block_is_not_signed_text(gpg_world):
    ann, mod = gpg_world.ann, gpg_world.moderator
    block = ann.keyring.clearsign("move Rd01 to 133\n", ann.fingerprint)
    result = mod.keyring.verify_clearsigned(b"concede\n" + block + b"\nmove Rd02 to 1\n")
    assert result.valid
    assert "concede" not in result.signed_text
    assert "Rd02" not in result.signed_text


def test_a_sign_on_checked_before_its_key_is_held_logs_no_gpg_exit_code(
    gpg_world, stranger, caplog
):
    """Issue 24, item 9: every sign-on's first check (its key not yet imported) logged
    "gpg returned a non-zero error code: 2"; the answer says all there is to say."""
    signature = stranger.keyring.sign_detached(ORDERS, stranger.fingerprint)
    with caplog.at_level("DEBUG", logger="gnupg"):
        result = gpg_world.moderator.keyring.verify_detached(ORDERS, signature)
    assert result.reason is SignatureStatus.UNKNOWN_KEY
    assert not [r for r in caplog.records if "non-zero error code" in r.getMessage()]
    assert [r for r in caplog.records if r.name == "gnupg"]  # its other records still pass


def test_clearsigned_by_an_unknown_key(gpg_world, stranger):
    block = stranger.keyring.clearsign("move Rd01 to 133\n", stranger.fingerprint)
    result = gpg_world.moderator.keyring.verify_clearsigned(block)
    assert (result.valid, result.reason, result.signed_data) == (
        False,
        SignatureStatus.UNKNOWN_KEY,
        b"",
    )


# -- encryption -----------------------------------------------------------------


def test_encrypt_to_a_player_and_only_he_decrypts(gpg_world):
    mod, ann, bob = gpg_world.moderator, gpg_world.ann, gpg_world.bob
    secret = b"Rd01: Titan, Angel, Ogre, Ogre, Centaur, Centaur, Gargoyle, Gargoyle\r\n"
    ciphertext = mod.keyring.encrypt(secret, [ann.fingerprint])
    assert ciphertext.startswith(b"-----BEGIN PGP MESSAGE-----")
    assert b"Titan" not in ciphertext
    assert ann.keyring.decrypt(ciphertext) == secret
    for outsider in (bob, mod):
        with pytest.raises(GpgError, match="no secret key"):
            outsider.keyring.decrypt(ciphertext)


def test_encryption_is_not_signed_unless_asked(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    raw = gnupg.GPG(gnupghome=str(ann.keyring.home))
    plain = raw.decrypt(mod.keyring.encrypt(b"Rd01: Titan\r\n", [ann.fingerprint]))
    assert plain.ok and not plain.valid and plain.signature_id is None
    signed = raw.decrypt(
        mod.keyring.encrypt(b"x\r\n", [ann.fingerprint], sign_with=mod.fingerprint)
    )
    assert signed.ok and signed.valid and signed.pubkey_fingerprint == mod.fingerprint


def test_encrypt_needs_a_known_fingerprint(gpg_world, stranger):
    mod = gpg_world.moderator
    with pytest.raises(GpgError, match="no public key for recipient"):
        mod.keyring.encrypt(b"x", [stranger.fingerprint])
    with pytest.raises(GpgError, match="not a full key fingerprint"):
        mod.keyring.encrypt(b"x", ["ann@example.org"])


def test_decrypt_of_garbage_fails_cleanly(gpg_world):
    with pytest.raises(GpgError, match="cannot decrypt"):
        gpg_world.ann.keyring.decrypt(b"plain text")


# -- real signatures from other programs --------------------------------------


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs /work/shared/mail-corpus")
def test_signature_hash_agrees_with_gpg_on_real_mail(gpg_home):
    """
    Checked against ``gpg --list-packets``, not against ``micalg``: the
    apple-mail-gpgmail sample says pgp-sha512 over a SHA-256 signature
    (verifiers must not trust micalg).
    """
    names = {"2": "sha1", "8": "sha256", "10": "sha512"}
    checked = 0
    for path in sorted((CORPUS / "pgp-mime-signed").glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        for part in message.walk():
            if part.get_content_type() == "multipart/signed":
                signature = part.get_payload()[1].get_payload(decode=True)
                listing = subprocess.run(
                    ["gpg", "--homedir", str(gpg_home), "--batch", "--list-packets"],
                    input=signature,
                    capture_output=True,
                    check=False,
                ).stdout.decode()
                algo = re.search(r"digest algo (\d+)", listing)
                assert algo, path.name
                assert signature_hash(signature) == names[algo.group(1)], path.name
                checked += 1
    assert checked >= 2
