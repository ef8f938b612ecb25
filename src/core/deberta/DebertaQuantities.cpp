// DeBERTa's own quantity (docs/ARCHITECTURE.md, "The quantity table"): the log bucket of every
// query and key, as HF transformers' make_log_bucket_position computes it.
#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/RelativeTable.h"
#include "core/deberta/DebertaBuckets.h"

using namespace Qt::StringLiterals;

namespace posenc {

QuantitySpec makeDebertaBucketQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::DebertaBucket;
    q.name = u"deberta-bucket"_s;
    q.label = u"DeBERTa bucket of i − j"_s;
    q.help = u"the log bucket of query - key i - j [max_len, max_len], signed and not capped, whole numbers\n"
             "              (deberta)"_s;
    q.reads = {u"encoding"_s, u"max-len"_s, u"deberta-buckets"_s, u"deberta-max-position"_s};
    q.missing = [](const Params &p) -> std::optional<QString> {
        if (p.encoding != Encoding::Deberta)
            return u"only the deberta encoding log-buckets query - key"_s;
        return std::nullopt;
    };
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.maxLen}; };
    q.workCells = RelativeTable::workCells;
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        // The table's offset is key - query; the bucket is of query - key (DebertaBuckets::ofOffset).
        RelativeTable::fill(block, out, streaming, [&](std::int64_t first, std::int64_t count, float *values) {
            RelativeBuckets::fillOffsets(DebertaBuckets::bucketFamily(), engine.params(), first, count, values);
        });
    };
    // The bucket of the farthest pair, signed and not capped.
    q.bound = [](const Params &p) {
        return p.encoding == Encoding::Deberta
            ? static_cast<double>(DebertaBuckets::bucket(p.maxLen - 1, p.deberta.buckets, p.deberta.maxPosition))
            : 1.0;
    };
    q.parameters = [](const Params &p) {
        return QStringList {u"%1 buckets, max position %2, L = %3"_s.arg(p.deberta.buckets)
                                .arg(p.deberta.maxPosition)
                                .arg(NumberText::count(p.maxLen))};
    };
    return q;
}

} // namespace posenc
