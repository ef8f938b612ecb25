#include "DebertaParamRows.h"

#include "DebertaBuckets.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace posenc::DebertaParamRows {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("DebertaParamRows", text);
}

std::optional<IdleReason> debertaIdle(const Params &p)
{
    return ParamRows::otherEncoding(p, Encoding::Deberta);
}

bool bucketsValid(const Params &p)
{
    const std::int64_t n = p.deberta.buckets;
    return n >= 2 && n <= DebertaParams::kMaxBuckets && n % 2 == 0;
}

ParamSpec bucketsRow()
{
    const auto bounds
        = [](const Params &) { return std::pair<std::int64_t, std::int64_t>(2, DebertaParams::kMaxBuckets); };
    const QString allowed = u"an even integer in [2, %1]"_s.arg(DebertaParams::kMaxBuckets);
    ParamSpec s = ParamRows::integer(
        u"deberta-buckets"_s, ParamGroup::Family, [](Params &p) -> std::int64_t & { return p.deberta.buckets; },
        bounds);
    s.help = u"position_buckets: relative positions within position_buckets / 2 keep their own bucket, the farther\n"
             "      ones share logarithmic buckets"_s;
    s.label = u"deberta_buckets"_s;
    s.controlMin = 0;
    s.controlMax = DebertaParams::kMaxBuckets;
    s.allowed = [allowed](const Params &) { return allowed; };
    s.check = [bounds, allowed](const Params &p) -> std::optional<ParamError> {
        const auto [lo, hi] = bounds(p);
        const std::int64_t n = p.deberta.buckets;
        const QString given = QString::number(n);
        if (n < lo || n > hi)
            return ParamError {u"deberta-buckets"_s, allowed, QString(), given};
        if (n % 2 != 0)
            return ParamError {u"deberta-buckets"_s, allowed,
                               u"is odd: make_log_bucket_position takes mid = position_buckets // 2 and scales its "
                               "logarithmic buckets to reach 2·mid - 1 at max_position - 1, one short of the last "
                               "bucket when the count is odd"_s,
                               given};
        return std::nullopt;
    };
    s.idle = debertaIdle;
    s.formula = [](const Params &p) {
        QString text = tr("position_buckets: with mid = position_buckets/2, a relative position r = i − j with |r| ≤ "
                          "mid is its own bucket; beyond, sign(r)·(⌈ln(|r|/mid) / ln((max_position − 1)/mid) · "
                          "(mid − 1)⌉ + mid), in float32 as make_log_bucket_position computes it (DeBERTa-v2 and "
                          "v3: 256). Unlike T5 the bucket is not capped: the attention clamps it to its span.");
        if (bucketsValid(p))
            text += tr(" Now exact within ±%1.").arg(p.deberta.buckets / 2);
        return text;
    };
    return s;
}

ParamSpec maxPositionRow()
{
    // ln((max_position - 1) / mid) must be > 0: max_position - 1 > mid.
    const auto lowest = [](const Params &p) { return bucketsValid(p) ? p.deberta.buckets / 2 + 2 : 3; };
    const auto bounds
        = [lowest](const Params &p) { return std::pair<std::int64_t, std::int64_t>(lowest(p), Params::kMaxLen); };
    const auto note = [](const Params &p) {
        if (!bucketsValid(p))
            return QString();
        return u" (more than deberta-buckets / 2 + 1 = %1: the logarithmic buckets divide by ln((max_position - 1) / "
               "mid), mid = %2)"_s.arg(p.deberta.buckets / 2 + 1)
                   .arg(p.deberta.buckets / 2);
    };
    ParamSpec s = ParamRows::integer(
        u"deberta-max-position"_s, ParamGroup::Family,
        [](Params &p) -> std::int64_t & { return p.deberta.maxPosition; }, bounds);
    s.help = u"max_relative_positions (max_position_embeddings when a config gives -1): the logarithmic\n"
             "      buckets reach 2*mid - 1 at distance max_position - 1 and go on growing past it"_s;
    s.label = u"deberta_max_position"_s;
    s.controlMin = 0;
    s.controlMax = Params::kMaxLen;
    s.allowed = [bounds, note](const Params &p) {
        const auto [lo, hi] = bounds(p);
        return ParamRows::integerRange(lo, hi, note(p));
    };
    s.check = [bounds, note](const Params &p) -> std::optional<ParamError> {
        const auto [lo, hi] = bounds(p);
        if (p.deberta.maxPosition >= lo && p.deberta.maxPosition <= hi)
            return std::nullopt;
        return ParamError {u"deberta-max-position"_s, ParamRows::integerRange(lo, hi, note(p)), QString(),
                           QString::number(p.deberta.maxPosition)};
    };
    s.idle = debertaIdle;
    s.formula = [](const Params &p) {
        QString text = tr("max_relative_positions, the span the log buckets are scaled to: at |r| = max_position − 1 "
                          "the bucket is 2·mid − 1, and farther positions go on growing, more slowly (DeBERTa-v3: "
                          "max_relative_positions −1, so max_position_embeddings 512).");
        if (bucketsValid(p) && p.deberta.maxPosition > p.deberta.buckets / 2 + 1
            && p.deberta.maxPosition <= Params::kMaxLen)
            text += tr(" Now r = %1 takes bucket %2.")
                        .arg(p.deberta.maxPosition)
                        .arg(DebertaBuckets::bucket(p.deberta.maxPosition, p.deberta.buckets, p.deberta.maxPosition));
        return text;
    };
    return s;
}

} // namespace

QList<ParamSpec> rows()
{
    return {bucketsRow(), maxPositionRow()};
}

} // namespace posenc::DebertaParamRows
