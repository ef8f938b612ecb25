// T5 (docs/ARCHITECTURE.md, Encoding families): no term added to X; each head adds a learned scalar
// per bucket of key - query, as HF's _relative_position_bucket buckets it.
#include "check/t5/T5TableCheck.h"
#include "core/FamilySpec.h"

#include "check/t5/T5Config.h"
#include "core/NumberText.h"
#include "core/t5/T5Buckets.h"
#include "core/t5/T5LessonNumbers.h"
#include "core/t5/T5ParamRows.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries t5Entries(const Params &params)
{
    const T5Buckets::Description d = T5Buckets::describe(params);
    return {
        {u"buckets"_s, d.buckets},
        {u"max_distance"_s, d.maxDistance},
        {u"direction"_s, d.bidirectional ? u"bidirectional"_s : u"causal"_s},
        {u"side_buckets"_s, d.sideBuckets},
        {u"max_exact"_s, d.maxExact},
        {u"log_bucket_starts"_s, d.logBucketStarts},
        {u"empty_buckets"_s, d.emptyBuckets},
        {u"last_bucket_start"_s, d.lastBucketStart},
    };
}

// The families figure's panel: the bucket of each offset, exact steps.
std::optional<FamilyPanelData> t5PanelData(const Params &params, std::int64_t, const OffsetPixels &offsets,
                                           std::int64_t, const std::atomic<bool> *)
{
    FamilyPanelData data;
    data.least = 0.0;
    data.most = static_cast<double>(std::max<std::int64_t>(params.t5.buckets - 1, 1));
    data.problem = T5Buckets::problem(params);
    if (data.problem) {
        data.note = u"T5: %1"_s.arg(*data.problem);
        return data;
    }
    data.curve = FamilyCurves::steps(
        offsets, [&params](std::int64_t k) { return static_cast<double>(T5Buckets::ofOffset(params, k)); });
    data.note = u"T5: bucket of k, %1 buckets, max_distance %2, %3"_s.arg(params.t5.buckets)
                    .arg(NumberText::count(params.t5.maxDistance))
                    .arg(params.t5.causal ? u"causal"_s : u"bidirectional"_s);
    return data;
}

std::optional<FamilyPanelPoint> t5PanelValue(const Params &params, std::int64_t query, std::int64_t key)
{
    if (T5Buckets::problem(params))
        return std::nullopt;
    return FamilyPanelPoint {static_cast<double>(T5Buckets::ofOffset(params, key - query)),
                             u"k = %1: T5 bucket"_s.arg(key - query)};
}

FamilyPanel t5Panel()
{
    FamilyPanel panel;
    panel.style = FamilyPanelStyle::Steps;
    panel.label = u"T5 bucket"_s;
    panel.terseLabel = u"T5"_s;
    panel.summaryOwner = u"T5's"_s;
    panel.summaryNoun = u"bucket"_s;
    panel.colour = 0x009E73;
    panel.bucketStandsIn = true;
    panel.name = u"T5"_s;
    panel.bucketTerm = u"a learned bias per bucket"_s;
    panel.inputs = {Quantity::T5Bucket};
    panel.compute = t5PanelData;
    panel.valueAt = t5PanelValue;
    return panel;
}

} // namespace

FamilySpec makeT5Family()
{
    FamilySpec family;
    family.word = u"t5"_s;
    family.kind = FamilyKind::ScoreBias;
    family.help = u"t5 (buckets of key - query)"_s;
    family.formula = u"no term added; each head adds a learned scalar per bucket of j − i, exact near and logarithmic "
                     u"far (Raffel et "
                     "al. 2020; T5, Flan-T5, mT5, Chronos)"_s;
    family.heading = u"T5 relative buckets"_s;
    family.rows = T5ParamRows::rows;
    family.describe = t5Entries;
    family.describeSource = u"HF's _relative_position_bucket, its logarithm in float32"_s;
    family.describeKeys = {
        {u"buckets, max_distance"_s, u"the parameters"_s},
        {u"direction"_s, u"bidirectional (the encoder) or causal (the decoder)"_s},
        {u"side_buckets"_s, u"n: buckets / 2 when bidirectional, else buckets"_s},
        {u"max_exact"_s, u"n / 2: each distance below it is its own bucket"_s},
        {u"log_bucket_starts"_s,
         u"the first distance of each logarithmic bucket max_exact .. n - 1 (a bucket no "
         "distance falls in starts where the next one does)"_s},
        {u"empty_buckets"_s, u"logarithmic buckets that no distance falls in"_s},
        {u"last_bucket_start"_s, u"every key at this distance or farther shares bucket n - 1"_s},
    };
    // X is s·E alone: its heatmap beside the buckets, which act on the scores.
    family.defaultFigures = {
        {u"buckets"_s, {}}, {u"families"_s, {}}, {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}}, {u"magnitudes"_s, {}}};
    family.lessonNumbers = T5LessonNumbers::entries;
    family.panel = t5Panel();
    family.readConfig = T5Config::layers;
    family.configFindings = T5Config::findings();
    family.tableHypothesis = T5TableCheck::hypothesis();
    family.layerWords
        = [](const Params &p) { return u"T5 buckets %1, max distance %2"_s.arg(p.t5.buckets).arg(p.t5.maxDistance); };
    return family;
}

} // namespace posenc
