#pragma once

namespace posenc {

// What a figure's drawing makes of its data on the job's thread (FigureDescriptor::prepare), so
// that the GUI thread adopts it instead of making it: QCustomPlot's containers of a series of d or
// L points (docs/ARCHITECTURE.md, Background work). Opaque here: the drawing's own type.
struct PreparedDrawing
{
    virtual ~PreparedDrawing() = default;
};

} // namespace posenc
