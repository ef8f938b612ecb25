#include "QueryScale.h"

#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

double QueryScale::at(std::int64_t p) const
{
    switch (kind) {
    case Kind::None:
        return 1.0;
    case Kind::Temperature:
        // log1p(floor((p + 1) / floor_scale)) * attn_scale + 1
        return std::log1p(std::floor(double(p + 1) / double(length))) * scale + 1.0;
    case Kind::Beta:
        // 1 + beta * log(1 + floor(p / L0))
        return 1.0 + scale * std::log(1.0 + std::floor(double(p) / double(length)));
    }
    return 1.0;
}

std::int64_t QueryScale::firstRise() const
{
    if (kind == Kind::None || scale == 0.0)
        return -1;
    return kind == Kind::Temperature ? length - 1 : length;
}

QString QueryScale::words() const
{
    const QString s = NumberText::exact(scale);
    switch (kind) {
    case Kind::None:
        return u"none"_s;
    case Kind::Temperature:
        return u"1 + %1 ln(floor((p + 1) / %2) + 1)"_s.arg(s).arg(length);
    case Kind::Beta:
        return u"1 + %1 ln(1 + floor(p / %2))"_s.arg(s).arg(length);
    }
    return {};
}

} // namespace posenc
