#pragma once

#include "core/Quantity.h"

#include <QString>

#include <cstdint>

// The words and numbers figures show, shared by the data (titles and summaries computed with it)
// and the drawing.
namespace posenc::FigureText {

QString quantityLabel(Quantity quantity); // for colorbars and titles
QString formatCount(std::int64_t n); // 8192 -> "8,192"
QString formatNumber(double value, int digits = 4); // compact, exponent when needed

} // namespace posenc::FigureText
