import pytest
import torch

from attncheck.numeric.devices import torch_device


def test_cpu_is_the_default(monkeypatch):
    monkeypatch.delenv("ATTNCHECK_DEVICE", raising=False)
    assert torch_device().type == "cpu"


def test_auto_and_env(monkeypatch):
    monkeypatch.setenv("ATTNCHECK_DEVICE", "auto")
    assert torch_device().type == ("cuda" if torch.cuda.is_available() else "cpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without cuda")
def test_cuda_without_gpu_is_an_error():
    with pytest.raises(ValueError, match="cuda"):
        torch_device("cuda")


def test_unknown_device_is_an_error():
    with pytest.raises((ValueError, RuntimeError)):
        torch_device("tpu")
