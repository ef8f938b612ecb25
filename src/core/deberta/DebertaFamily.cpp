// DeBERTa (docs/ARCHITECTURE.md, Encoding families): no term added to X; log buckets of query - key,
// as HF's make_log_bucket_position makes them, index its disentangled attention's relative embeddings.
#include "check/deberta/DebertaTableCheck.h"
#include "core/FamilySpec.h"

#include "check/deberta/DebertaConfig.h"
#include "core/NumberText.h"
#include "core/deberta/DebertaBuckets.h"
#include "core/deberta/DebertaLessonNumbers.h"
#include "core/deberta/DebertaParamRows.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries debertaEntries(const Params &params)
{
    const DebertaBuckets::Description d = DebertaBuckets::describe(params);
    return {
        {u"buckets"_s, d.buckets},
        {u"max_position"_s, d.maxPosition},
        {u"mid"_s, d.mid},
        {u"log_start"_s, d.logStart},
        {u"bucket_at_max_position"_s, d.bucketAtMaxPosition},
        {u"bucket_at_max_len"_s, d.bucketAtMaxLen},
        {u"capped"_s, d.capped},
    };
}

// The families figure's panel: the bucket of each offset, exact steps.
std::optional<FamilyPanelData> debertaPanelData(const Params &params, std::int64_t, const OffsetPixels &offsets,
                                                std::int64_t, const std::atomic<bool> *)
{
    FamilyPanelData data;
    data.least = -1.0;
    data.most = 1.0;
    data.problem = DebertaBuckets::problem(params);
    if (data.problem) {
        data.note = u"DeBERTa: %1"_s.arg(*data.problem);
        return data;
    }
    data.curve = FamilyCurves::steps(
        offsets, [&params](std::int64_t k) { return static_cast<double>(DebertaBuckets::ofOffset(params, k)); });
    data.note = u"DeBERTa: bucket of q − j = −k, %1 buckets, max_position %2"_s.arg(params.deberta.buckets)
                    .arg(NumberText::count(params.deberta.maxPosition));
    return data;
}

std::optional<FamilyPanelPoint> debertaPanelValue(const Params &params, std::int64_t query, std::int64_t key)
{
    if (DebertaBuckets::problem(params))
        return std::nullopt;
    return FamilyPanelPoint {static_cast<double>(DebertaBuckets::ofOffset(params, key - query)),
                             u"k = %1: DeBERTa bucket"_s.arg(key - query)};
}

FamilyPanel debertaPanel()
{
    FamilyPanel panel;
    panel.style = FamilyPanelStyle::Steps;
    panel.label = u"DeBERTa bucket"_s;
    panel.terseLabel = u"DeBERTa"_s;
    panel.summaryOwner = u"DeBERTa's"_s;
    panel.summaryNoun = u"bucket"_s;
    panel.colour = 0xCC79A7;
    panel.bucketStandsIn = true;
    panel.name = u"DeBERTa"_s;
    // No bias: the bucket picks a row of a learned relative embedding, whose projections meet the
    // query's and key's contents (HF's DisentangledSelfAttention.disentangled_attention_bias).
    panel.bucketTerm = u"c2p + p2c over its bucket's row of a learned relative embedding"_s;
    panel.inputs = {Quantity::DebertaBucket};
    panel.compute = debertaPanelData;
    panel.valueAt = debertaPanelValue;
    return panel;
}

} // namespace

FamilySpec makeDebertaFamily()
{
    FamilySpec family;
    family.word = u"deberta"_s;
    family.kind = FamilyKind::ScoreBias;
    family.help = u"deberta (log buckets)"_s;
    family.formula
        = u"no term added; log buckets of i − j index the relative embeddings of its disentangled attention (He et al. "
          "2021; DeBERTa-v2, DeBERTa-v3)"_s;
    family.heading = u"DeBERTa log buckets"_s;
    family.rows = DebertaParamRows::rows;
    family.describe = debertaEntries;
    family.describeSource = u"HF's make_log_bucket_position, in float32"_s;
    family.describeKeys = {
        {u"buckets, max_position"_s, u"the parameters"_s},
        {u"mid"_s, u"buckets / 2: each |i - j| <= mid is its own bucket"_s},
        {u"log_start"_s, u"mid + 1, the first distance in a logarithmic bucket"_s},
        {u"bucket_at_max_position, bucket_at_max_len"_s, u"the buckets of i - j = max_position and max-len - 1"_s},
        {u"capped"_s, u"false: the bucket goes on growing past max_position (1000 is 317 at 256 and 512)"_s},
    };
    // X is s·E alone: its heatmap beside the buckets, which act on the scores.
    family.defaultFigures = {
        {u"buckets"_s, {}}, {u"families"_s, {}}, {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}}, {u"magnitudes"_s, {}}};
    family.lessonNumbers = DebertaLessonNumbers::entries;
    family.panel = debertaPanel();
    family.readConfig = DebertaConfig::layers;
    family.configFindings = DebertaConfig::findings();
    family.tableHypothesis = DebertaTableCheck::hypothesis();
    family.layerWords = [](const Params &p) { return u"DeBERTa buckets %1"_s.arg(p.deberta.buckets); };
    return family;
}

} // namespace posenc
