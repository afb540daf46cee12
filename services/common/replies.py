"""A command's answer, and the reply that takes it back to whoever sent the command.

A reply is called once with the answer: the accepted command's ``SubmitReply``, or the
``Rejection`` that refused it. Every path a command comes by (the gateway's play socket,
its Submit over gRPC-web, the batch forwarded over NATS, the arbitration's own gRPC
Submit) hands the arbitration a ``Reply`` of its own; a second call is ignored. A caller
that awaits the answer gives ``services.common.futures.settling`` of its future.
"""

from __future__ import annotations

from collections.abc import Callable

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.rejection import Rejection

Answer = arbitration_pb2.SubmitReply | Rejection
Reply = Callable[[Answer], None]
