#include "MropePositionsModel.h"

#include "core/ParamText.h"
#include "core/mrope/MropePrompt.h"

using namespace Qt::StringLiterals;

namespace posenc {

MropePositionsData MropePositionsModel::compute(const Engine &engine)
{
    const MropeLayout &layout = engine.source<MropeLayout>();
    MropePositionsData data;
    data.tokens = layout.tokens();
    data.maxId = layout.maxId();
    data.ropeDelta = layout.ropeDelta();
    const Params &params = engine.params();
    data.rule = u"%1, transformers %2"_s.arg(ParamText::get(params, u"vision-positions"_s),
                                             ParamText::get(params, u"mrope-era"_s));
    // Every token, or an even sample of a long prompt, its last token included.
    const std::int64_t count = std::min(data.tokens, MropePositionsData::kMaxPoints);
    data.sampled = count < data.tokens;
    for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t row = count > 1 ? i * (data.tokens - 1) / (count - 1) : 0;
        const MropeIds ids = layout.ids(row);
        data.rows.append(double(row));
        data.t.append(double(ids.t));
        data.h.append(double(ids.h));
        data.w.append(double(ids.w));
    }
    bool afterVision = false;
    for (const MropeLayout::Span &span : layout.spans()) {
        if (span.kind == MropeTokenKind::Text) {
            if (afterVision) {
                data.startRows.append(double(span.firstRow));
                data.startIds.append(double(span.start));
            }
            afterVision = false;
            continue;
        }
        afterVision = true;
        ++data.allSpans;
        if (data.spans.size() < MropePositionsData::kMaxSpans)
            data.spans.append({span.firstRow, span.firstRow + span.rows, span.kind == MropeTokenKind::Video});
    }
    return data;
}

QString MropePositionsModel::name() const
{
    return u"mrope-positions"_s;
}

QString MropePositionsModel::title() const
{
    return u"M-RoPE positions"_s;
}

QString MropePositionsModel::summary() const
{
    return u"the prompt's tokens with their t, h and w ids, image and video spans shaded, the next text's start "
           "and the first generated token marked"_s;
}

QList<Quantity> MropePositionsModel::inputs(const FigureState &) const
{
    return {Quantity::MropePositions};
}

std::optional<TableRequest> MropePositionsModel::table(const Params &params, const FigureState &) const
{
    return TableRequest {TableRequest::Cells,
                         Quantity::MropePositions,
                         {0, Quantities::shape(Quantity::MropePositions, params).rows, 0, 4},
                         {}};
}

FigureResult MropePositionsModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    return {std::make_shared<const MropePositionsData>(compute(*request.engine)), std::nullopt};
}

} // namespace posenc
