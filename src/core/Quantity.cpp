#include "Quantity.h"

#include <cmath>

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

QString label(Quantity quantity)
{
    return spec(quantity).label;
}

QString label(Quantity quantity, const Params &params)
{
    const QuantitySpec &row = spec(quantity);
    return row.labelFor ? row.labelFor(params) : row.label;
}

double bound(Quantity quantity, const Params &params)
{
    const double value = spec(quantity).bound(params);
    return value > 0.0 && std::isfinite(value) ? value : 1.0;
}

double embeddingBound(const Params &params)
{
    constexpr double kSpreads = 3.0;
    double sigma = params.sigma();
    if (params.embeddings) {
        // The loaded rows' RMS over their finite cells (a NaN of the file is drawn as one, not
        // spread over the whole range).
        const RowMatrixXf &values = params.embeddings->values;
        double sum = 0.0;
        std::int64_t count = 0;
        for (Eigen::Index i = 0; i < values.size(); ++i) {
            const double v = values.data()[i];
            if (std::isfinite(v)) {
                sum += v * v;
                ++count;
            }
        }
        sigma = count == 0 ? 0.0 : std::sqrt(sum / static_cast<double>(count));
    }
    return kSpreads * std::abs(params.scale()) * sigma;
}

} // namespace posenc::Quantities
