#include "CheckApplyHeads.h"

#include "check/TableMatch.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::CheckApplyHeads {

namespace {

// The leading dimensions: batch (1 for a rank 3 array), then the two of heads and positions.
struct Dims
{
    std::int64_t batch = 1, first = 1, second = 1, width = 1;
};

Dims dimsOf(const std::vector<std::int64_t> &shape)
{
    const std::size_t n = shape.size();
    return {n == 4 ? shape[0] : 1, shape[n - 3], shape[n - 2], shape[n - 1]};
}

// The worse of two verdicts: a mistake in any head, else a head unknown, else a variant.
int rank(CheckVerdict v)
{
    switch (v) {
    case CheckVerdict::Mistake:
        return 4;
    case CheckVerdict::Unknown:
        return 3;
    case CheckVerdict::Variant:
    case CheckVerdict::Learned:
        return 2;
    case CheckVerdict::Correct:
        return 1;
    }
    return 3;
}

QString shapeText(const std::vector<std::int64_t> &shape)
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    return u"["_s + dims.join(u", "_s) + u"]"_s;
}

QString orderText(Order order, bool batch)
{
    const QString dims = order == Order::HeadsFirst ? u"H, L, D"_s : u"L, H, D"_s;
    return u"["_s + (batch ? u"B, "_s : QString()) + dims + u"]"_s;
}

// The mistakes of a head's --json entries ("mistakes": [...]).
QStringList mistakesOf(const QString &entries)
{
    const QJsonObject o = QJsonDocument::fromJson((u"{"_s + entries + u"}"_s).toUtf8()).object();
    QStringList ids;
    for (const QJsonValue &v : o.value(u"mistakes"_s).toArray())
        ids.append(v.toString());
    return ids;
}

} // namespace

bool isHeads(const std::vector<std::int64_t> &shape)
{
    if (shape.size() < 3)
        return false;
    std::int64_t leading = 0;
    for (std::size_t i = 0; i + 2 < shape.size(); ++i)
        leading += shape[i] > 1 ? 1 : 0;
    return leading > 0 || shape.size() > 4;
}

QString acceptedShapes()
{
    return u"[L, D], [H, L, D], [B, H, L, D] or [B, L, H, D]"_s;
}

RowMatrixXf head(const RowMatrixXf &all, const std::vector<std::int64_t> &shape, Order order, std::int64_t index)
{
    const Dims d = dimsOf(shape);
    const std::int64_t heads = order == Order::HeadsFirst ? d.first : d.second;
    const std::int64_t length = order == Order::HeadsFirst ? d.second : d.first;
    const std::int64_t b = index / heads, h = index % heads;
    RowMatrixXf out(length, d.width);
    for (std::int64_t l = 0; l < length; ++l) {
        const std::int64_t row
            = order == Order::HeadsFirst ? (b * heads + h) * length + l : (b * length + l) * heads + h;
        out.row(l) = all.row(row);
    }
    return out;
}

std::variant<ApplyResult, QString> check(const RowMatrixXf &x, const RowMatrixXf &y,
                                         const std::vector<std::int64_t> &shape, const CheckOne &one)
{
    if (shape.size() > 4)
        return u"X and Y of %1: --apply takes %2"_s.arg(shapeText(shape), acceptedShapes());
    const Dims d = dimsOf(shape);
    const bool batch = shape.size() == 4;
    // The order whose first head the check explains; the heads first where neither does.
    Order order = Order::HeadsFirst;
    std::variant<ApplyResult, QString> first = one(head(x, shape, order, 0), head(y, shape, order, 0), 0);
    const auto *firstResult = std::get_if<ApplyResult>(&first);
    if (d.first != d.second && (!firstResult || firstResult->verdict == CheckVerdict::Unknown)) {
        auto other = one(head(x, shape, Order::PositionsFirst, 0), head(y, shape, Order::PositionsFirst, 0), 0);
        const auto *otherResult = std::get_if<ApplyResult>(&other);
        if (otherResult && otherResult->verdict != CheckVerdict::Unknown) {
            order = Order::PositionsFirst;
            first = std::move(other);
        }
    }
    if (const auto *refused = std::get_if<QString>(&first))
        return u"head 0 of %1 read as %2: %3"_s.arg(shapeText(shape), orderText(order, batch), *refused);
    const std::int64_t heads = order == Order::HeadsFirst ? d.first : d.second;
    const std::int64_t count = d.batch * heads;
    std::vector<ApplyResult> results {std::get<ApplyResult>(std::move(first))};
    for (std::int64_t i = 1; i < count; ++i) {
        auto r = one(head(x, shape, order, i), head(y, shape, order, i), i / heads);
        if (const auto *refused = std::get_if<QString>(&r))
            return u"batch %1, head %2: %3"_s.arg(i / heads).arg(i % heads).arg(*refused);
        results.push_back(std::get<ApplyResult>(std::move(r)));
    }
    ApplyResult combined;
    combined.verdict = CheckVerdict::Correct;
    std::int64_t shown = 0;
    QStringList mistakes, headEntries, headLines;
    for (std::int64_t i = 0; i < count; ++i) {
        const ApplyResult &r = results[std::size_t(i)];
        if (rank(r.verdict) > rank(combined.verdict)) {
            combined.verdict = r.verdict;
            shown = i;
        }
        for (const QString &id : mistakesOf(r.json)) {
            if (!mistakes.contains(id))
                mistakes.append(id);
        }
        headEntries.append(u"{\"batch\": %1, \"head\": %2, %3}"_s.arg(i / heads).arg(i % heads).arg(r.json));
        headLines.append(u"  batch %1, head %2: %3"_s.arg(i / heads).arg(i % heads).arg(
            r.lines.isEmpty() ? CheckWords::verdict(r.verdict) : r.lines.constFirst()));
    }
    const ApplyResult &worst = results[std::size_t(shown)];
    combined.lines = {u"X and Y of %1 read as %2: %3 heads of %4 positions, each checked on its own"_s
                          .arg(shapeText(shape), orderText(order, batch))
                          .arg(count)
                          .arg(order == Order::HeadsFirst ? d.second : d.first)};
    combined.lines += headLines;
    combined.lines.append(u"batch %1, head %2 in full:"_s.arg(shown / heads).arg(shown % heads));
    combined.lines += worst.lines;
    QStringList quoted;
    for (const QString &id : mistakes)
        quoted.append(u"\"%1\""_s.arg(id));
    combined.json = u"\"verdict\": \"%1\", \"tensor_shape\": \"%2\", \"tensor_layout\": \"%3\", \"mistakes\": [%4], "
                    "\"worst_head\": {\"batch\": %5, \"head\": %6}, \"heads\": [%7]"_s
                        .arg(CheckWords::verdict(combined.verdict), shapeText(shape), orderText(order, batch),
                             quoted.join(u", "_s))
                        .arg(shown / heads)
                        .arg(shown % heads)
                        .arg(headEntries.join(u", "_s));
    return combined;
}

} // namespace posenc::CheckApplyHeads
