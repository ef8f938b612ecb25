#include "IdsAgainstReference.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::IdsAgainstReference {

bool holds(const ReferenceIds &batch, IdsChoice prefill, IdsChoice decode, const RowMatrixXf &ids)
{
    const BatchLayout &layout = batch.layout();
    std::vector<std::int64_t> made(std::size_t(batch.axes() * layout.cols()));
    std::vector<std::int64_t> steps(made.size());
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        batch.ids(prefill, b, 0, layout.cols(), made.data());
        batch.ids(decode, b, 0, layout.cols(), steps.data());
        for (const BatchSegment &s : layout.row(b)) {
            if (!s.isReal())
                continue;
            const std::vector<std::int64_t> &row = s.decode ? steps : made;
            for (int a = 0; a < batch.axes(); ++a)
                for (std::int64_t c = s.start; c < s.end(); ++c)
                    if (double(ids(a * layout.rows() + b, c)) != double(row[std::size_t(a * layout.cols() + c)]))
                        return false;
        }
    }
    return true;
}

bool holds(const ReferenceIds &batch, IdsChoice choice, const RowMatrixXf &ids)
{
    return holds(batch, choice, choice, ids);
}

QString differences(const ReferenceIds &batch, const std::vector<RowShifts> &rows, const RowMatrixXf &ids)
{
    const BatchLayout &layout = batch.layout();
    const auto words = [](const std::set<std::int64_t> &shifts) {
        if (shifts.empty() || (shifts.size() == 1 && *shifts.begin() == 0))
            return QString();
        if (shifts.size() == 1)
            return u"the reference's %1%2"_s.arg(*shifts.begin() > 0 ? u"+"_s : u"−"_s).arg(std::abs(*shifts.begin()));
        return u"ids off the reference's by %1 amounts"_s.arg(shifts.size());
    };
    QStringList parts;
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        QString prefill = words(rows[std::size_t(b)].prefill);
        QString decode = words(rows[std::size_t(b)].decode);
        // Decode steps at their own column: the row's padding counted (arange-with-padding's ids there).
        if (!decode.isEmpty() && holds(batch, IdsChoice::Reference, IdsChoice::ArangeWithPadding, ids)) {
            const std::int64_t padding = layout.cols() - layout.realTokens(b);
            decode = u"their columns, the row's padding (%1 token%2) not subtracted"_s.arg(padding).arg(
                padding == 1 ? QString() : u"s"_s);
        }
        if (!prefill.isEmpty())
            parts.append(u"row %1's prefill: %2"_s.arg(b).arg(prefill));
        if (!decode.isEmpty())
            parts.append(u"row %1's decode steps: %2"_s.arg(b).arg(decode));
    }
    return parts.join(u"; "_s);
}

std::vector<RowShifts> shifts(const ReferenceIds &batch, const RowMatrixXf &ids,
                              std::optional<PositionIdsCheck::Difference> &first)
{
    const BatchLayout &layout = batch.layout();
    std::vector<RowShifts> all(std::size_t(layout.rows()));
    std::vector<std::int64_t> row(std::size_t(batch.axes() * layout.cols()));
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        batch.ids(IdsChoice::Reference, b, 0, layout.cols(), row.data());
        for (const BatchSegment &s : layout.row(b)) {
            if (!s.isReal())
                continue;
            for (std::int64_t c = s.start; c < s.end(); ++c) {
                for (int a = 0; a < batch.axes(); ++a) {
                    const double given = ids(a * layout.rows() + b, c);
                    const std::int64_t reference = row[std::size_t(a * layout.cols() + c)];
                    const std::int64_t shift
                        = std::isfinite(given) ? std::llround(given) - reference : std::int64_t(1) << 40;
                    (s.decode ? all[std::size_t(b)].decode : all[std::size_t(b)].prefill).insert(shift);
                    if (shift != 0 && !first)
                        first = PositionIdsCheck::Difference {
                            b, c, a, std::llround(std::isfinite(given) ? given : -1.0), reference};
                }
            }
        }
    }
    return all;
}

QString referenceWords(const ReferenceIds &batch, bool mrope)
{
    const BatchLayout &layout = batch.layout();
    if (batch.axes() == 3 && layout.hasDocuments())
        return u"each document laid out as Qwen-VL's get_rope_index lays out text (models/qwen2_vl/"
               "modeling_qwen2_vl.py): t, h and w alike from 0, the flattening collator's ids on every axis"_s;
    if (batch.axes() == 3)
        return u"Qwen-VL's get_rope_index with the attention mask (models/qwen2_vl/modeling_qwen2_vl.py), a "
               "decode step's ids cache_position + rope_deltas"_s;
    if (layout.hasDocuments())
        return u"transformers' DataCollatorWithFlattening: each document's ids from 0 (data/data_collator.py)%1"_s.arg(
            mrope ? u", which Qwen2VLTextModel.forward gives t, h and w alike (models/qwen2_vl/modeling_qwen2_vl.py: "
                    "position_ids[None, ...].expand(3, ...))"_s
                  : QString());
    return u"transformers' generation: attention_mask.long().cumsum(-1) - 1, the padding 1 "
           "(generation/utils.py, prepare_inputs_for_generation)%1"_s.arg(
               layout.cache() > 0 ? u", the mask a column of ones longer each decode step"_s : QString());
}

} // namespace posenc::IdsAgainstReference
