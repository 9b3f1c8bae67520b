"""torch references for goel2026 (arXiv 2603.01514): the in-sample softmax of eq. (1) (self-term
included), differentiated by autograd for Lemma 8, and the dense Hessians of the population loss
L(A, B) = tr(E Sigma E^T)/2, E = A Sigma B^T - M (Theorem 1 (1)), in A with B fixed and in B with A fixed
(the side remark on separate strong convexity in the proof of Theorem 1, claims file Section 3.2)."""
from __future__ import annotations

import torch


def softmax_t(x, B):
    """p_ij = softmax_j(x_i^T B x_j) over all n keys (self-term included), rows i."""
    return torch.softmax(x @ B @ x.T, dim=-1)


def hessian_minima(Sigma, M, A, B) -> tuple[float, float]:
    """lambda_min of the Hessians of L in A (B fixed) and in B (A fixed), by autograd (dense)."""
    S, M = torch.tensor(Sigma), torch.tensor(M)
    A, B = torch.tensor(A), torch.tensor(B)

    def L_of_A(a):
        E = a.reshape(A.shape) @ S @ B.T - M
        return 0.5 * torch.trace(E @ S @ E.T)

    def L_of_B(b):
        E = A @ S @ b.reshape(B.shape).T - M
        return 0.5 * torch.trace(E @ S @ E.T)

    hA = torch.autograd.functional.hessian(L_of_A, A.reshape(-1))
    hB = torch.autograd.functional.hessian(L_of_B, B.reshape(-1))
    return float(torch.linalg.eigvalsh(hA)[0]), float(torch.linalg.eigvalsh(hB)[0])
