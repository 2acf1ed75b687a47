"""The tests of paper 000 (collected by pytest: ``testpaths = tests theorycheck``)."""
