#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

namespace posenc {

// The alibi-slopes figure's data: every head's slope, which of them form the geometric series
// and which are interleaved, and the plain series a copied formula would give instead.
struct AlibiSlopesData : FigureData
{
    std::int64_t heads = 0; // H
    std::int64_t geometric = 0; // P, the largest power of two <= H: heads 1..P are r^k
    std::int64_t head = 1; // K, the head the bias figure shows
    QList<double> slopes; // m_1 .. m_H, as get_slopes gives them
    // For H not a power of two, 2^(-8k/H) for k = 1..H: the plain geometric series some ports
    // compute for every H (mlx#343), wrong past head P; empty for H a power of two.
    QList<double> plain;
    // Where each interleaved slope sits on the geometric series: head i + 1/2 (2^(-8(i + 1/2)/P)),
    // halfway between heads i and i + 1 on the log axis; empty for H a power of two.
    QList<double> seriesPlace;
    QString interleave; // AlibiText::interleaveText
};

// "ALiBi slopes": the slope m_k of every head k on a log axis, heads 1..P (P the largest power of
// two <= H) the geometric series 2^(-8k/P) and the heads after them, interleaved from the series
// of 2P heads, marked apart and said in words; for H not a power of two the plain series
// 2^(-8k/H) beside them, the bug of a port that forgets the interleave.
class AlibiSlopesModel final : public FigureModel
{
public:
    static AlibiSlopesData compute(const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Alibi}; }
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
