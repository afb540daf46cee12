"""The accounts store on SQLite and PostgreSQL: unique names, sessions, refresh rotation."""

from __future__ import annotations

import asyncio

import pytest

from services.accounts.credentials import Credentials
from services.accounts.migrations import MIGRATIONS, migrate
from services.accounts.model import REFRESH_TTL_S, Account, Reason, Refused
from services.accounts.names import clean, key
from services.accounts.store import Store
from services.common.database import Database, Target
from tests.accounts.conftest import Clock


async def signed_up(store: Store, name: str = "Ann", player_id: str = "a_ann") -> Account:
    assert await store.create(player_id, clean(name), key(clean(name)), "$argon2id$hash")
    found = await store.account(key(clean(name)))
    assert found is not None
    return found


async def refused(reason: Reason, work: object) -> None:
    assert asyncio.iscoroutine(work)
    with pytest.raises(Refused) as caught:
        await work
    assert caught.value.reason is reason


async def test_a_look_alike_of_a_taken_name_is_taken(store: Store) -> None:
    ann = await signed_up(store)
    assert ann.username == "Ann" and not ann.deleted
    for index, other in enumerate(("ann", "Аnn", "ＡＮＮ")):
        assert not await store.create(f"a_{index}", clean(other), key(clean(other)), "h")
    # A guest becomes one account at most: its player id is the account's.
    await refused(Reason.GUEST_CLAIMED, store.create("a_ann", "Bob", key("Bob"), "h"))


async def test_two_sign_ups_of_one_name_at_once_make_one_account(target: Target) -> None:
    stores = []
    for _ in range(2):
        database = Database(target)
        await database.open()
        stores.append(Store(database))
    await stores[0].migrate()
    made = await asyncio.gather(
        *(s.create(f"a_{i}", "Ann", key("Ann"), "h") for i, s in enumerate(stores))
    )
    assert sorted(account is not None for account in made) == [False, True]
    for s in stores:
        await s.database.close()


async def test_a_refresh_token_turns_once_into_the_next(store: Store, clock: Clock) -> None:
    ann = await signed_up(store)
    first = await store.begin(ann, "Firefox on Linux")
    clock.now += 60
    second = await store.refresh(first.refresh_token)
    assert (second.player_id, second.username, second.session_id) == (
        ann.player_id,
        "Ann",
        first.session_id,
    )
    assert second.refresh_token != first.refresh_token
    third = await store.refresh(second.refresh_token)
    assert third.session_id == first.session_id
    [device] = await store.devices(ann.player_id)
    assert (device.device, device.last_seen_unix_s) == ("Firefox on Linux", clock.now)


async def test_a_reused_refresh_token_ends_its_whole_session(store: Store) -> None:
    ann = await signed_up(store)
    stolen = await store.begin(ann, "phone")
    other = await store.begin(ann, "desktop")
    rotated = await store.refresh(stolen.refresh_token)
    await refused(Reason.REFRESH_REUSED, store.refresh(stolen.refresh_token))
    # The family is ended: its newest token is refused too; another session lives on.
    await refused(Reason.SESSION_ENDED, store.refresh(rotated.refresh_token))
    assert [d.session_id for d in await store.devices(ann.player_id)] == [other.session_id]
    await store.refresh(other.refresh_token)


async def test_a_refresh_token_unused_for_30_days_has_expired(store: Store, clock: Clock) -> None:
    ann = await signed_up(store)
    kept = await store.begin(ann, "desktop")
    clock.now += REFRESH_TTL_S - 1
    kept = await store.refresh(kept.refresh_token)  # used in time: 30 days more
    clock.now += REFRESH_TTL_S
    await refused(Reason.REFRESH_EXPIRED, store.refresh(kept.refresh_token))
    assert await store.devices(ann.player_id) == ()


async def test_unknown_and_forged_refresh_tokens_are_refused(store: Store) -> None:
    ann = await signed_up(store)
    real = await store.begin(ann, "desktop")
    for forged in ("", "x", real.refresh_token + "x", real.refresh_token.upper(), "\x00" * 40):
        await refused(Reason.REFRESH_UNKNOWN, store.refresh(forged))
    await store.refresh(real.refresh_token)  # none of that harmed the real one


async def test_signing_out_one_device_or_every_device(store: Store) -> None:
    ann = await signed_up(store)
    bob = await signed_up(store, "Bob", "a_bob")
    phone, desktop, laptop = [await store.begin(ann, d) for d in ("phone", "desktop", "laptop")]
    bobs = await store.begin(bob, "desktop")
    assert await store.end(ann.player_id, phone.session_id, "signed_out") == (phone.session_id,)
    await refused(Reason.SESSION_ENDED, store.refresh(phone.refresh_token))
    await refused(Reason.NO_SUCH_SESSION, store.end(ann.player_id, phone.session_id, "again"))
    await refused(Reason.NO_SUCH_SESSION, store.end(ann.player_id, bobs.session_id, "not hers"))
    ended = await store.end(ann.player_id, None, "signed_out_everywhere")
    assert sorted(ended) == sorted([desktop.session_id, laptop.session_id])
    assert await store.devices(ann.player_id) == ()
    assert len(await store.devices(bob.player_id)) == 1


async def test_a_deleted_account_signs_in_nowhere_and_keeps_its_name(store: Store) -> None:
    ann = await signed_up(store)
    session = await store.begin(ann, "desktop")
    assert await store.delete(ann.player_id) == (session.session_id,)
    await refused(Reason.SESSION_ENDED, store.refresh(session.refresh_token))
    gone = await store.account(key("Ann"))
    assert gone is not None and gone.deleted and gone.password_hash == ""
    assert not await store.create("a_new", "ann", key("ann"), "h")


async def test_a_database_of_the_first_schema_opens_with_its_accounts_signed_in(
    target: Target,
) -> None:
    """Accounts and sessions made before passkeys came keep working after the migration."""
    database = Database(target)
    await database.open()
    try:
        await database.run(lambda s: migrate(s, 0.0, MIGRATIONS[:1]))
        before = Store(database)
        # Made as the first schema's code made them (it read no later column).
        ann = await before.create("a_ann", "Ann", key("Ann"), "$argon2id$hash")
        assert ann is not None
        session = await before.begin(ann, "Firefox on Linux")
        store = Store(database)
        assert await store.migrate() == (2, 3, 4)
        assert await store.account(key("Ann")) == ann
        turned = await store.refresh(session.refresh_token)
        assert (turned.player_id, turned.session_id) == (ann.player_id, session.session_id)
        assert await Credentials(database).of(ann.player_id) == ()
        assert await store.migrate() == ()  # applied once
    finally:
        await database.close()
