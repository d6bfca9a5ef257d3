"""A stock Python gRPC client against a real shipgate daemon.

Uses only what PyPI ships (grpcio, grpcio-reflection,
grpcio-health-checking, grpcio-status) and no code generated from
shipgate.proto: the shipgate service is called through the descriptors the
daemon's reflection serves. Run by tests/stock_python_client.rs:

    python stock_client.py --unix /path/d.sock --tcp 127.0.0.1:PORT \
        --token-file TOKEN --workspace /path/to/repo

Checks, on the Unix socket (with the target exactly as grpcio documents
it, no `:authority` override) and on TCP:
  - reflection (v1alpha and v1) lists the services and resolves the
    shipgate.v1.Shipgate descriptor;
  - health `Check` answers SERVING (on TCP without the token);
  - `Status` answers (on TCP with the token; without it, UNAUTHENTICATED
    with reason BAD_TOKEN);
  - a `Diff` with an unknown base is INVALID_ARGUMENT with a
    google.rpc.Status detail holding an ErrorInfo (domain shipgate.dev,
    reason BAD_REVISION, field base, the value) and a message naming no
    command-line flag.
Prints one line per check and ends with "N passed, N failed"; exits 1 on
any failure.
"""

import argparse
import sys

import grpc
from google.protobuf import descriptor_pool, message_factory
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from grpc_status import rpc_status

SHIPGATE = "shipgate.v1.Shipgate"
HEALTH = "grpc.health.v1.Health"
REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"
REFLECTION_V1ALPHA = "grpc.reflection.v1alpha.ServerReflection"
EVERY_SERVICE = {SHIPGATE, HEALTH, REFLECTION_V1, REFLECTION_V1ALPHA}
TIMEOUT = 30

RESULTS = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    RESULTS["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else ": " + detail))


def reflected_services_v1(channel):
    """ListServices over grpc.reflection.v1: its messages are those of
    v1alpha field for field, so v1alpha's classes encode them."""
    call = channel.stream_stream(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    responses = list(call(iter([request]), timeout=TIMEOUT))
    return sorted(s.name for s in responses[0].list_services_response.service)


def reflected_services_v1alpha(channel):
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    responses = list(stub.ServerReflectionInfo(iter([request]), timeout=TIMEOUT))
    return sorted(s.name for s in responses[0].list_services_response.service)


def shipgate_messages(channel):
    """The shipgate service's descriptor and its message classes, from
    reflection alone."""
    database = ProtoReflectionDescriptorDatabase(channel)
    pool = descriptor_pool.DescriptorPool(database)
    service = pool.FindServiceByName(SHIPGATE)
    classes = {
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName("shipgate.v1." + name))
        for name in ("StatusRequest", "StatusResponse", "DiffRequest", "DiffResponse")
    }
    return service, classes


def error_infos(rich):
    """The ErrorInfo details of a google.rpc.Status (none when absent)."""
    infos = []
    for detail in rich.details if rich is not None else []:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            infos.append(info)
    return infos


def unary(channel, classes, method, request_type, response_type):
    return channel.unary_unary(
        "/" + SHIPGATE + "/" + method,
        request_serializer=classes[request_type].SerializeToString,
        response_deserializer=classes[response_type].FromString,
    )


def exercise(label, channel, metadata, workspace, check_unauthenticated):
    services = reflected_services_v1alpha(channel)
    check(
        label + ": reflection v1alpha lists the services",
        EVERY_SERVICE <= set(services),
        str(services),
    )
    services_v1 = reflected_services_v1(channel)
    check(
        label + ": reflection v1 lists the services",
        EVERY_SERVICE <= set(services_v1),
        str(services_v1),
    )

    service, classes = shipgate_messages(channel)
    methods = sorted(m.name for m in service.methods)
    check(
        label + ": the shipgate descriptor resolves",
        {"Diff", "History", "Status", "Watch", "Unwatch", "Shutdown"} <= set(methods),
        str(methods),
    )

    health = health_pb2_grpc.HealthStub(channel)
    for name in ("", SHIPGATE):
        answer = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=TIMEOUT)
        check(
            label + ": health says SERVING for " + (name or "the server") + " (no token)",
            answer.status == health_pb2.HealthCheckResponse.SERVING,
            str(answer),
        )

    status = unary(channel, classes, "Status", "StatusRequest", "StatusResponse")
    answer = status(classes["StatusRequest"](), metadata=metadata, timeout=TIMEOUT)
    check(label + ": Status answers", bool(answer.version) and answer.pid > 0, str(answer))
    if check_unauthenticated:
        try:
            status(classes["StatusRequest"](), timeout=TIMEOUT)
            check(label + ": Status without the token is refused", False, "it answered")
        except grpc.RpcError as refused:
            check(
                label + ": Status without the token is refused",
                refused.code() == grpc.StatusCode.UNAUTHENTICATED,
                str(refused.code()),
            )
            reasons = [info.reason for info in error_infos(rpc_status.from_call(refused))]
            check(label + ": the refusal's reason is BAD_TOKEN", reasons == ["BAD_TOKEN"], str(reasons))

    diff = unary(channel, classes, "Diff", "DiffRequest", "DiffResponse")
    request = classes["DiffRequest"](workspace=workspace, base="no-such-ref", head="HEAD")
    try:
        diff(request, metadata=metadata, timeout=TIMEOUT)
        check(label + ": a bad base is refused", False, "the diff answered")
        return
    except grpc.RpcError as refused:
        check(
            label + ": a bad base is INVALID_ARGUMENT",
            refused.code() == grpc.StatusCode.INVALID_ARGUMENT,
            str(refused.code()),
        )
        check(
            label + ": the message names no command-line flag",
            "--" not in refused.details(),
            refused.details(),
        )
        rich = rpc_status.from_call(refused)
    check(label + ": a google.rpc.Status detail arrives", rich is not None, "none")
    if rich is None:
        return
    infos = error_infos(rich)
    check(label + ": it holds one ErrorInfo", len(infos) == 1, str(rich.details))
    if not infos:
        return
    info = infos[0]
    check(label + ": ErrorInfo domain", info.domain == "shipgate.dev", info.domain)
    check(label + ": ErrorInfo reason", info.reason == "BAD_REVISION", info.reason)
    check(
        label + ": ErrorInfo metadata names the field and its value",
        info.metadata.get("field") == "base"
        and info.metadata.get("value") == "no-such-ref"
        and info.metadata.get("errorKind") == "usage",
        str(dict(info.metadata)),
    )

    # The policy (issue 45): its verdict beside the answer, and a condition
    # it does not know refused as bad input with its own reason.
    request = classes["DiffRequest"](workspace=workspace, base="HEAD", head="HEAD", fail_on=["added"])
    answer = diff(request, metadata=metadata, timeout=TIMEOUT)
    check(
        label + ": a policy's verdict comes beside the answer",
        answer.exit_code == 0
        and list(answer.policy.fail_on) == ["added"]
        and len(answer.policy.failed) == 0
        and answer.policy.report.startswith("shipgate: policy: passed"),
        str(answer.policy),
    )
    request = classes["DiffRequest"](workspace=workspace, base="HEAD", head="HEAD", fail_on=["widened"])
    try:
        diff(request, metadata=metadata, timeout=TIMEOUT)
        check(label + ": an unknown condition is refused", False, "the diff answered")
    except grpc.RpcError as refused:
        reasons = [info.reason for info in error_infos(rpc_status.from_call(refused))]
        check(
            label + ": an unknown condition is INVALID_ARGUMENT, BAD_POLICY",
            refused.code() == grpc.StatusCode.INVALID_ARGUMENT and reasons == ["BAD_POLICY"],
            str(refused.code()) + " " + str(reasons),
        )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--unix", required=True)
    parser.add_argument("--tcp", required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--workspace", required=True)
    args = parser.parse_args()
    with open(args.token_file) as handle:
        token = handle.read().strip()

    # As grpcio documents a Unix target: no authority override.
    with grpc.insecure_channel("unix://" + args.unix) as channel:
        exercise("unix", channel, None, args.workspace, check_unauthenticated=False)
    with grpc.insecure_channel(args.tcp) as channel:
        exercise(
            "tcp",
            channel,
            (("authorization", "Bearer " + token),),
            args.workspace,
            check_unauthenticated=True,
        )

    print("{passed} passed, {failed} failed".format(**RESULTS))
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
