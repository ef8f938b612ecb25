#include "Quantity.h"

using namespace Qt::StringLiterals;

namespace posenc::Quantities {

namespace {

struct Entry
{
    Quantity quantity;
    const char16_t *name;
};

constexpr Entry kEntries[] = {
    {Quantity::Pe, u"pe"},         {Quantity::Embedding, u"embedding"}, {Quantity::Input, u"input"},
    {Quantity::Output, u"output"}, {Quantity::Mask, u"mask"},           {Quantity::Similarity, u"similarity"},
    {Quantity::Error, u"error"},
};

} // namespace

QStringList names()
{
    QStringList list;
    for (const Entry &e : kEntries)
        list.append(QString::fromUtf16(e.name));
    return list;
}

QString name(Quantity quantity)
{
    for (const Entry &e : kEntries) {
        if (e.quantity == quantity)
            return QString::fromUtf16(e.name);
    }
    return {};
}

std::optional<Quantity> fromName(const QString &text)
{
    for (const Entry &e : kEntries) {
        if (text == QString::fromUtf16(e.name))
            return e.quantity;
    }
    return std::nullopt;
}

Shape shape(Quantity quantity, const Params &params)
{
    switch (quantity) {
    case Quantity::Pe:
    case Quantity::Error:
        return {params.maxLen, params.peColumns()};
    case Quantity::Embedding:
        return {params.maxLen, params.embeddingColumns()};
    case Quantity::Input:
    case Quantity::Output:
    case Quantity::Mask:
        return {params.maxLen, params.dModel};
    case Quantity::Similarity:
        return {params.maxLen, params.maxLen};
    }
    return {};
}

} // namespace posenc::Quantities
