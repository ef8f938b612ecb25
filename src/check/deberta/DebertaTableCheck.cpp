#include "DebertaTableCheck.h"

#include "check/BucketFit.h"
#include "core/deberta/DebertaBuckets.h"

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::DebertaTableCheck {

namespace {

const QString kTable = u"deberta-bucket"_s;

const BucketFit::Table &table();

// Whether every value is a whole number, the offset 0's bucket 0, and the table antisymmetric
// where both sides are held: the bucket of i - j.
bool bucketValues(const OffsetProfile &profile)
{
    if (!profile.has(0) || profile.at(0) != 0.0f || !profile.has(-1) || profile.at(-1) != 1.0f)
        return false;
    for (std::size_t k = 0; k < profile.values.size(); ++k) {
        const float v = profile.values[k];
        if (profile.votes[k] > 0 && !(v == std::floor(v) && std::fabs(v) < float(Params::kMaxLen)))
            return false;
    }
    return !profile.has(1) || profile.at(1) == -1.0f;
}

// The settings at `buckets` whose max_position range the runs allow, if any.
std::optional<BucketFit::Found> withBuckets(const std::vector<ProfileRun> &runs, std::int64_t buckets, bool shown)
{
    Params p;
    p.encoding = Encoding::Deberta;
    p.deberta.buckets = buckets;
    const auto range = BucketFit::limitRange(DebertaBuckets::bucketFamily(), p, runs, buckets / 2 + 2);
    return range ? std::optional(BucketFit::found(table(), p, buckets, *range, shown)) : std::nullopt;
}

// The buckets of i − j, HF's relative_pos = query_ids − key_ids (build_relative_position):
// distances up to mid = buckets / 2 are their own bucket, the first that is not is past mid. Each
// mid below it that a max_position allows, a power of two's buckets first, then the most.
std::optional<BucketFit::Found> fitRuns(const OffsetProfile &, const std::vector<ProfileRun> &runs)
{
    const std::int64_t firstLog = BucketFit::firstShared(runs);
    if (firstLog < 0) {
        std::int64_t farthest = 0;
        for (const ProfileRun &run : runs)
            farthest = std::max(farthest, run.last);
        // Every distance its own bucket: the buckets do not show; DeBERTa-v3's 256 where allowed.
        return withBuckets(runs, std::max<std::int64_t>(256, 2 * farthest), false);
    }
    std::optional<BucketFit::Found> most;
    for (std::int64_t mid = firstLog - 1; mid >= 1; --mid) {
        const std::optional<BucketFit::Found> found = withBuckets(runs, 2 * mid, true);
        if (!found)
            continue;
        if ((mid & (mid - 1)) == 0)
            return found;
        if (!most)
            most = found;
    }
    return most;
}

QList<PublishedForm> publishedForms(std::int64_t)
{
    Params p;
    p.encoding = Encoding::Deberta;
    return {{u"DeBERTa-v3-base"_s, u"microsoft/deberta-v3-base, config.json"_s, kTable, p}};
}

const BucketFit::Table &table()
{
    static const BucketFit::Table t {
        .buckets = DebertaBuckets::bucketFamily(),
        .table = kTable,
        .help = u"DeBERTa's log buckets of i - j (L x L): the buckets and the max_position the table allows"_s,
        .referenceCode = u"huggingface/transformers src/transformers/models/deberta_v2/modeling_deberta_v2.py, "
                         "make_log_bucket_position and build_relative_position"_s,
        .reference = u"HF's make_log_bucket_position"_s,
        .ownLimit = 512, // DeBERTa-v3's
        .queriesFirst = true,
        .bucketValues = bucketValues,
        .fitRuns = fitRuns,
        // Not capped: the bucket of the farthest pair may pass the buckets.
        .largest = [](const TableEvidence &e,
                      const Params &p) { return double(std::max(p.deberta.buckets, std::max(e.rows(), e.cols()))); },
        .moreFindingKeys = {},
        .moreFindings = {},
        .settingsWords =
            [](const Params &p) {
                return u"%1 buckets, max_position %2"_s.arg(p.deberta.buckets).arg(p.deberta.maxPosition);
            },
        .diagnosis =
            [](const Params &p) {
                return u"DeBERTa's log buckets of i − j as HF's make_log_bucket_position makes them: %1 buckets "
                       "(|i − j| up to %2 its own), max_position %3, not capped"_s.arg(p.deberta.buckets)
                           .arg(p.deberta.buckets / 2)
                           .arg(p.deberta.maxPosition);
            },
        .rangeWhy = {},
        .bucketsHidden = u"every distance of the table is its own bucket: the buckets do not show, %1 named"_s,
        // A table of j − i reads as DeBERTa's mirrored: the mistake, against the buckets of i − j.
        .reversedWhy = u"the buckets of j − i, the key's position minus the query's: HF's build_relative_position "
                       "takes relative_pos = query_ids − key_ids (i − j), so every bucket has the other sign"_s,
        .publishedForms = publishedForms,
        .defect = {},
        .defectMistakes = {},
    };
    return t;
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h = BucketFit::hypothesis(table());
    // The formula at a max_position no published model has (the table allows none of them): a
    // variant, saying what was compared (heldout8 F7: TensorRT#3370's buckets scaled by the
    // sequence length 384). DeBERTa-v2/v3 and mDeBERTa-v3 configs give position_buckets 256 and
    // max_relative_positions −1, so max_position_embeddings 512 (DebertaV2Attention's
    // max_relative_positions, modeling_deberta_v2.py).
    h.fit = [inner = h.fit](const TableEvidence &e) {
        std::optional<TableCandidate> c = inner(e);
        if (!c || !c->claims || c->match.verdict != CheckVerdict::Correct)
            return c;
        const DebertaParams &p = c->match.params ? c->match.params->deberta : DebertaParams {};
        if (p.buckets == 256 && p.maxPosition == 512)
            return c;
        TableMatch &m = c->match;
        m.verdict = CheckVerdict::Variant;
        m.correctAgainst.clear();
        m.diagnosis += u"; compared with HF's make_log_bucket_position at %1 buckets and max_position %2, both "
                       "parameters of the formula (position_buckets; max_relative_positions, or "
                       "max_position_embeddings where it is −1): no published form has them (DeBERTa-v3-base, "
                       "mDeBERTa-v3 and DeBERTa-v2-xlarge: 256 buckets, max_position 512), so a variant; "
                       "--deberta-buckets and --deberta-max-position declare the reference (TensorRT#3370 scaled "
                       "the buckets by the sequence length where max_position belongs)"_s.arg(p.buckets)
                           .arg(p.maxPosition);
        return c;
    };
    return h;
}

} // namespace posenc::DebertaTableCheck
