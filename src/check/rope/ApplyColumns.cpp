// The column orders a rotation's output is written back in by mistake. References: GPT-J's
// rotate_every_two (transformers' modeling_gptj.py: x1 = x[..., ::2], x2 = x[..., 1::2],
// torch.stack((-x2, x1), dim=-1).flatten(-2): the pairs interleaved back), HF's rotate_half
// (modeling_llama.py: the halves x[..., :d/2], x[..., d/2:]).
#include "check/rope/ApplyColumns.h"

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"
#include "check/rope/RopePublishedForms.h"
#include "check/rope/RopeTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc::ApplyColumns {

namespace {

// Column col0 + j of the rotation's output is column col0 + from(j) of Y, j < width; the columns
// outside [col0, col0 + width) are Y's.
RowMatrixXf reordered(const RowMatrixXf &y, std::int64_t (*from)(std::int64_t j, std::int64_t h), std::int64_t col0,
                      std::int64_t width)
{
    const std::int64_t h = width / 2;
    RowMatrixXf put = y;
    for (std::int64_t j = 0; j < width; ++j)
        put.col(col0 + j) = y.col(col0 + from(j, h));
    return put;
}

// Y = [out[0::2] | out[1::2]]: out[2i] is Y[i], out[2i + 1] is Y[h + i].
std::int64_t fromHalves(std::int64_t j, std::int64_t h)
{
    return j % 2 == 0 ? j / 2 : h + j / 2;
}

// Y = out's halves interleaved: out[i] is Y[2i], out[h + i] is Y[2i + 1].
std::int64_t fromInterleaved(std::int64_t j, std::int64_t h)
{
    return j < h ? 2 * j : 2 * (j - h) + 1;
}

} // namespace

RowMatrixXf quarterTurnedBack(const RowMatrixXf &y, bool halfPairs, std::int64_t col0, std::int64_t width)
{
    const std::int64_t h = width / 2;
    RowMatrixXf back = y;
    for (std::int64_t i = 0; i < h; ++i) {
        const std::int64_t a = col0 + (halfPairs ? i : 2 * i), b = col0 + (halfPairs ? i + h : 2 * i + 1);
        back.col(a) = y.col(b);
        back.col(b) = -y.col(a);
    }
    return back;
}

QStringList mistakeIds()
{
    return {kDeinterleaved, kInterleaved, kCosSinSwapped};
}

std::optional<Permuted> undo(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows,
                             double u, std::int64_t col0, std::int64_t width)
{
    if (width < 4 || width % 2 != 0 || col0 < 0 || col0 + width > y.cols())
        return std::nullopt;
    const struct
    {
        QString mistake;
        std::int64_t (*from)(std::int64_t, std::int64_t);
        QString line;
    } orders[] = {
        {kDeinterleaved, fromHalves,
         u"Y's columns are the rotated even columns, then the odd ones ([y0, y2, ... | y1, y3, ...]): the "
         "rotation's pairs (2i, 2i + 1) were concatenated, not interleaved back (GPT-J's rotate_every_two, "
         "modeling_gptj.py: torch.stack((-x2, x1), dim=-1).flatten(-2)); read with column 2i from Y's i and "
         "2i + 1 from Y's d/2 + i"_s},
        {kInterleaved, fromInterleaved,
         u"Y's columns are the rotation's halves interleaved ([y0, y_d/2, y1, y_d/2+1, ...]): the output of "
         "rotate_half's pairs (i, i + d/2) (modeling_llama.py) was written back in the interleaved order; read "
         "with column i from Y's 2i and d/2 + i from Y's 2i + 1"_s},
    };
    for (const auto &order : orders) {
        RowMatrixXf put = reordered(y, order.from, col0, width);
        const ApplyPairs::Reading r = ApplyPairs::bestReading(x, put, rows, col0, width);
        if (ApplyPairs::turnsPairs(r, u))
            return Permuted {order.mistake, order.line, std::move(put)};
    }
    return std::nullopt;
}

QString publishedAt(const Params &params, double attentionFactor, RopeLayout rotation, bool deinterleaved)
{
    const QStringList names = RopePublishedForms::withRotation(
        RopeTableCheck::publishedNames(params, attentionFactor, 1e-3), rotation, deinterleaved);
    return names.isEmpty() ? QString() : u"the RoPE cos table of %1"_s.arg(names.join(u", "_s));
}

void judge(ApplyCheck::Result &found, const Permuted &put, const ApplyCheck::Declared &declared)
{
    const bool hfOrder = put.mistake == kDeinterleaved && found.rotation == RopeLayout::Interleaved;
    if (!hfOrder || declared.deinterleaves == false) {
        found.mistakes.prepend(put.mistake);
        found.verdict = CheckVerdict::Mistake;
        found.diagnosis = put.line + u"; put back, "_s + found.diagnosis;
        return;
    }
    const QString order = u"Y's columns are the interleaved rotation's [y0, y2, ... | y1, y3, ...], as transformers' "
                          "apply_rotary_pos_emb_interleave writes them (modeling_deepseek_v3.py: q.view(b, h, s, "
                          "d // 2, 2).transpose(4, 3).reshape(b, h, s, d), then q * cos + rotate_half(q) * sin, k "
                          "alike, so q . k is the pairs' turned in place)"_s;
    found.diagnosis = order + (declared.deinterleaves == true ? u", the declared model's code"_s : QString())
        + u"; put back, "_s + found.diagnosis;
    if (declared.deinterleaves == true || found.verdict != CheckVerdict::Correct)
        return;
    const QString published = found.params && !declared.reference
        ? publishedAt(*found.params, found.attentionFactor, RopeLayout::Interleaved, true)
        : QString();
    if (!published.isEmpty()) {
        found.correctAgainst = published + u", q de-interleaved first (apply_rotary_pos_emb_interleave)"_s;
        found.diagnosis += u"; the published form: "_s + found.correctAgainst;
        return;
    }
    found.verdict = CheckVerdict::Unknown;
    found.correctAgainst.clear();
    found.notes.append(u"the code that wrote Y decides: GPT-J's rotate_every_two interleaves its pairs back "
                       "(modeling_gptj.py: torch.stack((-x2, x1), dim=-1).flatten(-2)), where this order is %1 "
                       "(vllm-project/vllm-metal#44); declare the model (--preset, --config) to compare with its "
                       "code"_s.arg(kDeinterleaved));
}

} // namespace posenc::ApplyColumns
