#include "T5TableCheck.h"

#include "check/BucketFit.h"
#include "check/DeclaredWords.h"
#include "check/t5/T5BucketDefects.h"
#include "core/t5/T5Buckets.h"

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::T5TableCheck {

namespace {

const QString kTable = u"t5-bucket"_s;

const BucketFit::Table &table();

// Whether every value is a whole number from 0, and the offset 0's bucket 0.
bool bucketValues(const OffsetProfile &profile)
{
    if (!profile.has(0) || profile.at(0) != 0.0f)
        return false;
    for (std::size_t k = 0; k < profile.values.size(); ++k) {
        const float v = profile.values[k];
        if (profile.votes[k] > 0 && !(v >= 0.0f && v == std::floor(v) && v < float(T5Params::kMaxBuckets)))
            return false;
    }
    return true;
}

// The side's buckets: bidirectional's from the first key after the query (its half's offset),
// causal's from the largest bucket (the cap) up to where the distances stop being their own
// bucket; the fewest that a max_distance allows.
std::optional<BucketFit::Found> fitSide(const OffsetProfile &profile, const std::vector<ProfileRun> &runs,
                                        bool bidirectional)
{
    if (runs.empty())
        return std::nullopt;
    std::int64_t least = 2, most = T5Params::kMaxBuckets;
    if (bidirectional) {
        if (!profile.has(-1))
            return std::nullopt;
        least = most = 2 * std::int64_t(profile.at(1) - profile.at(-1));
    } else {
        double largest = 0.0;
        for (const ProfileRun &run : runs)
            largest = std::max(largest, run.value);
        least = std::int64_t(largest) + 1;
        // Distances below max_exact = buckets / 2 are their own bucket: the first that is not
        // bounds max_exact. A table whose every distance is its own bucket does not show them:
        // T5's 32 where it allows it.
        if (const std::int64_t shared = BucketFit::firstShared(runs); shared >= 0)
            most = std::min(most, 2 * (shared - 1) + 1);
        else
            least = most = std::max<std::int64_t>(32, 2 * least);
    }
    Params p;
    p.encoding = Encoding::T5;
    p.t5.causal = !bidirectional;
    const RelativeBuckets::Family &family = T5Buckets::bucketFamily();
    for (std::int64_t n = least; n <= most; ++n) {
        p.t5.buckets = n;
        if (!RelativeBuckets::bucketsValid(family, p))
            continue;
        if (const auto range = BucketFit::limitRange(family, p, runs, n / 2 + 1))
            return BucketFit::found(table(), p, n, *range, bidirectional || least < most);
    }
    return std::nullopt;
}

// The table's buckets of j − i, HF's relative_position = memory_position − context_position: keys
// after the query in bucket 0 when causal, from buckets / 2 on when bidirectional.
std::optional<BucketFit::Found> fitRuns(const OffsetProfile &profile, const std::vector<ProfileRun> &runs)
{
    return fitSide(profile, runs, profile.has(1) && profile.at(1) > 0.0f);
}

QString direction(bool bidirectional)
{
    return bidirectional ? u"bidirectional"_s : u"causal"_s;
}

QList<PublishedForm> publishedForms(std::int64_t)
{
    Params p;
    p.encoding = Encoding::T5;
    QList<PublishedForm> forms {{u"T5's encoder"_s, u"google-t5/t5-base, config.json"_s, kTable, p}};
    p.t5.causal = true;
    forms.append({u"T5's decoder"_s, u"google-t5/t5-base, config.json"_s, kTable, p});
    return forms;
}

// A bidirectional map holding buckets no settings give, read as T5's without its log branch or its
// clamp (T5BucketDefects): never a learned table, nor unknown where the defect gives every cell.
std::optional<BucketFit::DefectReading> defectOf(const OffsetProfile &profile)
{
    const auto named = T5BucketDefects::readUndeclared(T5BucketDefects::ofProfile(profile));
    if (!named)
        return std::nullopt;
    Params p;
    p.encoding = Encoding::T5;
    p.t5 = named->params;
    BucketFit::DefectReading d;
    d.found = BucketFit::found(table(), p, p.t5.buckets, {p.t5.maxDistance, p.t5.maxDistance}, true);
    d.mistake = named->id;
    d.diagnosis = named->words;
    if (named->defect.missing == T5BucketDefects::Defect::Part::LogBranch)
        d.diagnosis
            += u" (the table shows no log bucket, so no max_distance: T5's own %1 named)"_s.arg(p.t5.maxDistance);
    d.values = [t5 = named->params, defect = named->defect](std::int64_t first, std::int64_t count, float *out) {
        for (std::int64_t k = 0; k < count; ++k)
            out[k] = float(T5BucketDefects::bucket(first + k, t5, defect));
    };
    d.largest = named->largest;
    return d;
}

const BucketFit::Table &table()
{
    static const BucketFit::Table t {
        .buckets = T5Buckets::bucketFamily(),
        .table = kTable,
        .help = u"T5's buckets of j - i (L x L): bidirectional or causal, the buckets and the max_distance the table "
                "allows"_s,
        .referenceCode = u"huggingface/transformers src/transformers/models/t5/modeling_t5.py, "
                         "T5Attention._relative_position_bucket"_s,
        .reference = u"HF's T5Attention._relative_position_bucket"_s,
        .ownLimit = 128, // T5's own
        .bucketValues = bucketValues,
        .fitRuns = fitRuns,
        .largest = [](const TableEvidence &, const Params &p) { return double(p.t5.buckets); },
        .moreFindingKeys = {u"bidirectional"_s},
        .moreFindings =
            [](const Params &p) {
                return QList<MatchField> {{u"bidirectional"_s, !p.t5.causal}};
            },
        .settingsWords =
            [](const Params &p) {
                return u"%1, %2 buckets, max_distance %3"_s.arg(direction(!p.t5.causal))
                    .arg(p.t5.buckets)
                    .arg(p.t5.maxDistance);
            },
        .diagnosis =
            [](const Params &p) {
                return u"T5's buckets of j − i as HF's _relative_position_bucket makes them: %1, %2 buckets, "
                       "max_distance %3%4"_s.arg(direction(!p.t5.causal))
                           .arg(p.t5.buckets)
                           .arg(p.t5.maxDistance)
                           .arg(p.t5.causal ? u" (keys after the query in bucket 0)"_s
                                            : u" (keys after the query from bucket %1 on)"_s.arg(p.t5.buckets / 2));
            },
        .rangeWhy = u" (its distances do not reach the buckets that tell them apart)"_s,
        .bucketsHidden = u"the table's distances stay below the bucket cap: %1 buckets is the fewest it allows"_s,
        // A table of i − j reads as T5's mirrored: the mistake, against the buckets of j − i.
        .reversedWhy = u"the buckets of i − j, the query's position minus the key's: HF's _relative_position_bucket "
                       "takes relative_position = memory_position − context_position, the key's minus the query's "
                       "(j − i), so the keys before and after the query trade buckets"_s,
        .publishedForms = publishedForms,
        .defect = defectOf,
        .defectMistakes = {T5BucketDefects::kLogBuckets, T5BucketDefects::kClamp},
    };
    return t;
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h = BucketFit::hypothesis(table());
    // A declared map that deviates: the defect of _relative_position_bucket at the declared settings
    // that gives every cell, read from the whole table.
    h.nameDeclaredDefect = [](const TableMatch &declared, const TableRows &rows) -> std::optional<TableMatch> {
        if (!declared.params || declared.params->encoding != Encoding::T5)
            return std::nullopt;
        const auto offsets = T5BucketDefects::ofTable(rows);
        if (!offsets)
            return std::nullopt;
        const auto named = T5BucketDefects::nameAt(*offsets, declared.params->t5, DeclaredWords::the() + u" T5 map"_s);
        if (!named)
            return std::nullopt;
        TableMatch m = declared;
        m.mistakes = {named->id};
        m.notes.prepend(m.diagnosis);
        m.diagnosis = named->words;
        return m;
    };
    return h;
}

} // namespace posenc::T5TableCheck
