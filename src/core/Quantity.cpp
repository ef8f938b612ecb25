#include "Quantity.h"

using namespace Qt::StringLiterals;

namespace posenc::Quantities {

const QList<QuantitySpec> &rows()
{
    static const QList<QuantitySpec> table = [] {
        QList<QuantitySpec> all;
#define POSENC_QUANTITY(Name) all.append(make##Name##Quantity());
#include "QuantityList.h"
#define POSENC_FAMILY_QUANTITY(Name) POSENC_QUANTITY(Name)
#include "FamilyList.h"
#undef POSENC_FAMILY_QUANTITY
#undef POSENC_QUANTITY
        return all;
    }();
    return table;
}

const QuantitySpec &spec(Quantity quantity)
{
    return rows()[static_cast<qsizetype>(quantity)];
}

QStringList names()
{
    QStringList list;
    for (const QuantitySpec &row : rows())
        list.append(row.name);
    return list;
}

QString name(Quantity quantity)
{
    return spec(quantity).name;
}

std::optional<Quantity> fromName(const QString &text)
{
    for (const QuantitySpec &row : rows()) {
        if (row.name == text)
            return row.quantity;
    }
    return std::nullopt;
}

Shape shape(Quantity quantity, const Params &params)
{
    return spec(quantity).shape(params);
}

QList<Quantity> available(const Params &params)
{
    QList<Quantity> list;
    for (const QuantitySpec &row : rows()) {
        if (!row.missing(params))
            list.append(row.quantity);
    }
    return list;
}

} // namespace posenc::Quantities
