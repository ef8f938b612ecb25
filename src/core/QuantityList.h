// The quantities of the program, one line each, in the order of `posenc table --help` and of the
// heatmap's chooser: adding a quantity is its row (a make<Name>Quantity() function in its
// family's folder), its tests and one line here (docs/ARCHITECTURE.md, "Adding a quantity"). No
// include guard: Quantity.h and Quantity.cpp read this list, with POSENC_QUANTITY(Name) defined
// to name the enum's values, to declare the rows' functions and to call them.
POSENC_QUANTITY(Pe)
POSENC_QUANTITY(Embedding)
POSENC_QUANTITY(Input)
POSENC_QUANTITY(Output)
POSENC_QUANTITY(Mask)
POSENC_QUANTITY(Similarity)
POSENC_QUANTITY(Error)
POSENC_QUANTITY(RopeFrequencies)
POSENC_QUANTITY(RopeCos)
POSENC_QUANTITY(RopeSin)
POSENC_QUANTITY(RopeScore)
POSENC_QUANTITY(RopeInput)
POSENC_QUANTITY(AlibiSlopes)
POSENC_QUANTITY(AlibiBias)
POSENC_QUANTITY(T5Bucket)
POSENC_QUANTITY(DebertaBucket)
