#include "SteadyLabel.h"

#include <algorithm>

namespace posenc {

namespace {

// The widths remembered: a dialog dragged wider and narrower asks for many. Past these, all are
// forgotten, and each width's height is that of the text shown when the layout asks again.
constexpr std::size_t kWidths = 64;

} // namespace

SteadyLabel::SteadyLabel(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
}

int SteadyLabel::heightForWidth(int width) const
{
    const int own = QLabel::heightForWidth(width);
    if (own < 0)
        return own;
    if (m_tallest.size() >= kWidths && !m_tallest.contains(width))
        m_tallest.clear();
    int &tallest = m_tallest[width];
    tallest = std::max(tallest, own);
    return tallest;
}

} // namespace posenc
